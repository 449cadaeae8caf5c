import Queue
import Store

/// `serve --transcribe`'s transcriber: the library's in-process one.
typealias ServeTranscriber = InProcessTranscriber

extension InProcessTranscriber {
    /// One that prints what it reports: results on stdout, pauses on stderr.
    convenience init(store: JournalStore, firstPause: Duration, makeRunner: @escaping @Sendable () throws -> QueueRunner) {
        self.init(store: store, firstPause: firstPause, report: { $0.isResult ? printNow($0.text) : printNotice($0.text) },
                  makeRunner: makeRunner)
    }
}
