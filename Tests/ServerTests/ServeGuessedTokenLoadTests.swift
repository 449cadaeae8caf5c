import Foundation
import Testing
import VoiceJournalTestSupport

/// `serve` under a flood of guessed links: every guess is a store read, and those reads run on
/// the bounded blocking threads, so the flood costs queued work, not a thread per request, and
/// memory settles once the server has warmed up.
@Suite(.onTestThreads, .serialized) struct ServeGuessedTokenLoadTests {
    /// The blocking threads `serve` may start: the executor's limit, max(4, 2 × cores).
    static let blockingThreads = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    /// Threads beyond the idle server's and the blocking ones: a one-off helper or two (a
    /// libdispatch worker, a thread of the runtime). Measured on 2 cores: 8 idle, 10 at the
    /// peak of the flood; the code before the bounded executor went from 7 idle to 56 (a
    /// thread per request in flight, 50 clients).
    static let slack = 8
    /// What the second thousand guesses may add to the resident memory, once the first
    /// thousand warmed the server up (measured: 0.2 MB).
    static let rssGrowthLimitKB = 4 * 1024

    @Test func twoThousandGuessedTokensFromFiftyClientsKeepThreadsBoundedAndMemoryFlat() throws {
        // A limit no flood here reaches: every guess is looked up in the store.
        let serve = try ServeHarness(["--requests-per-minute", "1000000"])
        let pid = try #require(serve.server?.process.processIdentifier)
        let idle = try #require(Self.status(of: pid))
        var peakThreads = idle.threads
        var rssAfter: [Int] = []
        for half in 0..<2 {
            let config = serve.folder.path("guesses-\(half).curl")
            let lines = (0..<1000).map { _ in
                "url = \"\(serve.base)/a/\(Self.guessedToken())\"\noutput = \"/dev/null\"\n"
            }
            try Data(lines.joined().utf8).write(to: config)
            let codes = serve.folder.path("codes-\(half).txt")
            _ = FileManager.default.createFile(atPath: codes.path, contents: nil)
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = ["curl", "-s", "--no-progress-meter", "--parallel", "--parallel-max", "50",
                              "--max-time", "60", "-K", config.path, "-w", "%{http_code}\n"]
            curl.standardOutput = try FileHandle(forWritingTo: codes)
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            while curl.isRunning {
                if let now = Self.status(of: pid) { peakThreads = max(peakThreads, now.threads) }
                Thread.sleep(forTimeInterval: 0.005)
            }
            let statuses = try String(contentsOf: codes, encoding: .utf8).split(separator: "\n")
            #expect(statuses.count == 1000 && statuses.allSatisfy { $0 == "404" }, "\(Set(statuses))")
            rssAfter.append(try #require(Self.status(of: pid)).rssKB)
        }
        let bound = idle.threads + Self.blockingThreads + Self.slack
        #expect(peakThreads <= bound, "peak \(peakThreads) threads, idle \(idle.threads), bound \(bound)")
        #expect(rssAfter[1] - rssAfter[0] < Self.rssGrowthLimitKB,
                "RSS idle \(idle.rssKB) kB, after 1000 \(rssAfter[0]) kB, after 2000 \(rssAfter[1]) kB")
        // The server still serves.
        let (_, token) = try serve.assignment()
        #expect(try serve.request("/a/\(token)").status == 200)
        print("serve under guessed tokens: threads idle \(idle.threads), peak \(peakThreads) (bound \(bound)); "
              + "RSS idle \(idle.rssKB) kB, after 1000 \(rssAfter[0]) kB, after 2000 \(rssAfter[1]) kB")
    }

    /// 32 hex digits, as a real link's token.
    private static func guessedToken() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// The process's thread count and resident memory, from /proc/<pid>/status.
    private static func status(of pid: Int32) -> (threads: Int, rssKB: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") }
        }
        guard let threads = field("Threads"), let rss = field("VmRSS") else { return nil }
        return (threads, rss)
    }
}
