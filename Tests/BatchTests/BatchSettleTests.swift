import Foundation
@testable import VoiceJournalBatch
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// Whether a file is left alone by its writer before it is queued.
@Suite(.onTestThreads) struct BatchSettleTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("vj-settle") }

    func file(modified: Date) throws -> (URL, FileStamp) {
        let url = folder.path("take-\(UUID().uuidString).wav")
        try Data(repeating: 1, count: 100).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
        return (url, try #require(FileStamp.current(path: url.path)))
    }

    @Test func anOldFileOrOneFromAClockInTheFutureIsTakenWithoutAWait() throws {
        for modified in [Date().addingTimeInterval(-60), Date().addingTimeInterval(86_400)] {
            let (url, stamp) = try file(modified: modified)
            let started = Date()
            #expect(BatchQueue.hasSettled(url, stamp: stamp))
            #expect(Date().timeIntervalSince(started) < 0.1)
        }
    }

    @Test func aFreshFileIsLookedAtAgainAndOneChangedMeanwhileHasNotSettled() throws {
        let (url, stamp) = try file(modified: Date())
        let started = Date()
        #expect(BatchQueue.hasSettled(url, stamp: stamp))
        #expect(Date().timeIntervalSince(started) >= BatchQueue.settleSeconds * 0.9)

        let (growing, before) = try file(modified: Date())
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            if let handle = try? FileHandle(forWritingTo: growing) {
                handle.seekToEndOfFile()
                handle.write(Data(repeating: 2, count: 100))
                try? handle.close()
            }
        }
        writer.start()
        #expect(!BatchQueue.hasSettled(growing, stamp: before))
    }
}
