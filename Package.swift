// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "voicejournal",
    products: [
        .executable(name: "voicejournal", targets: ["voicejournal"]),
        // What a program builds on, in one module that re-exports the rest; the command's
        // presentation (settings, pages, terminal drawing) and `serve` have package access only.
        .library(name: "VoiceJournal", targets: ["VoiceJournal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Already resolved for Hummingbird; `serve` names their types itself (request parts, the service group).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The library's one module for programs: re-exports the modules below.
        .target(name: "VoiceJournal", dependencies: [
            "VoiceJournalAudio", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalQueue",
            "VoiceJournalBatch", "VoiceJournalRecording", "VoiceJournalPlayback", "VoiceJournalChat", "VoiceJournalMail", "VoiceJournalSystem",
        ]),
        // C at the edge: one system-library target per library, typed shims for macros/variadics.
        .systemLibrary(name: "VoiceJournalCALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // libsndfile (libsndfile1-dev gives the header) is opened on first use (Audio's LibSndFile),
        // not linked: a library only some commands need, with the codec libraries it loads, is
        // no cost of every start (docs/benchmarks.md, start-up costs).
        .systemLibrary(name: "VoiceJournalCSndFile", providers: [.apt(["libsndfile1-dev"])]),
        // libcurl (libcurl4-openssl-dev gives the headers) is loaded on first use, like FFmpeg:
        // its thirty-odd dependent libraries would load on every start (docs/benchmarks.md).
        .target(name: "VoiceJournalCCurl", linkerSettings: [.linkedLibrary("dl")]),
        // FFmpeg (libavformat-dev, libavcodec-dev, libavutil-dev give the headers) is loaded with
        // dlopen on first use, not linked: its ~130 dependent libraries would slow every start.
        // It also quiets libmpg123 under libsndfile (mpg123_quiet.c): the command exports its
        // mpg123_new for libsndfile, which it opens at run time, to bind to. That linker flag sits
        // on the executable, not here: SwiftPM refuses unsafe flags in a package used as a
        // dependency, and a program using the library would not build.
        .target(name: "VoiceJournalCFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        // Read-only file mappings that survive the file being cut short (zeros, not SIGBUS):
        // playback hands a WAV's own samples to ALSA without copying them first.
        .target(name: "VoiceJournalCMappedFile"),
        // FTS5's bm25 with a cheaper way to each row's length (same scores), its snippet() at a cost
        // linear in a row's matches (same text), and a search's time limit; on SQLite's own library.
        .target(name: "VoiceJournalCSearchRank", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libsamplerate (libsamplerate0-dev gives the header): opened when a file must be converted.
        .systemLibrary(name: "VoiceJournalCSampleRate", providers: [.apt(["libsamplerate0-dev"])]),
        // glibc's mallopt, for the command's allocator settings.
        .systemLibrary(name: "VoiceJournalCMalloc"),

        .target(name: "VoiceJournalAudio", dependencies: [
            "VoiceJournalCALSA", "VoiceJournalCSndFile", "VoiceJournalCFFmpeg", "VoiceJournalCSampleRate", "VoiceJournalCMappedFile", "VoiceJournalSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The system edge every other module stands on: dlopen on first use (for the C libraries
        // only some commands need), blocking work on a bounded set of threads and a thread of
        // its own per long-lived loop, errno's text, EINTR retries, file locks, signal and key watches,
        // desktop notifications through the session bus (libdbus-1, opened on first use: LibDBus).
        .target(name: "VoiceJournalSystem"),
        // Whisper's languages: codes, names, the table both uploads and stored transcripts use.
        .target(name: "VoiceJournalLanguages"),
        .target(name: "VoiceJournalTranscription", dependencies: [
            "VoiceJournalCCurl", "VoiceJournalAudio", "VoiceJournalLanguages",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "VoiceJournalStore", dependencies: [
            "VoiceJournalCSearchRank", "VoiceJournalLanguages", "VoiceJournalSystem",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The journal answering back: an OpenAI-compatible chat client (libcurl, both schema
        // forms), reflections asked for, checked against the entry and stored.
        .target(name: "VoiceJournalChat", dependencies: [
            "VoiceJournalCCurl", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Email over SMTP with libcurl: addresses and messages checked and composed (RFC 5322,
        // MIME, RFC 2047), the settings (the password from the environment only), one message
        // sent and what became of it (sent, rejected, deferred, unknown, TLS refused).
        .target(name: "VoiceJournalMail", dependencies: [
            "VoiceJournalCCurl", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalSystem",
        ]),
        // The queue engine: runners, workers, the bookkeeper, the endpoint pool.
        .target(name: "VoiceJournalQueue", dependencies: [
            "VoiceJournalAudio", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Batch intake: walking folders, checking files are audio, queueing them, running the
        // queue over them, the wrap-up; a run's endpoint pool and options from the settings.
        .target(name: "VoiceJournalBatch", dependencies: [
            "VoiceJournalAudio", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalQueue", "VoiceJournalPages", "VoiceJournalTerminal", "VoiceJournalSystem",
            "VoiceJournalSettings", "VoiceJournalMail",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // A take (capture, file, rows), live pieces, recovery of killed takes, answers from files.
        .target(name: "VoiceJournalRecording", dependencies: [
            "VoiceJournalAudio", "VoiceJournalTranscription", "VoiceJournalStore", "VoiceJournalQueue", "VoiceJournalTerminal", "VoiceJournalSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Listening back: what to play (an entry, an answer, a search hit, a file) and the
        // player on a terminal (status line, the words being spoken, keys).
        // System for the signal watch (Ctrl-C and SIGTERM stop playback as they stop a take) and
        // the key watch.
        .target(name: "VoiceJournalPlayback", dependencies: [
            "VoiceJournalAudio", "VoiceJournalStore", "VoiceJournalTerminal", "VoiceJournalSystem",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Flags, environment, the config file and defaults, resolved once, as plain values: the
        // program gives what its other modules own (defaults, codecs, checks) and builds from them.
        .target(name: "VoiceJournalSettings", dependencies: [
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The journal as text: its pages and listings, the stats, deletion plans, exports.
        .target(name: "VoiceJournalPages", dependencies: [
            "VoiceJournalAudio", "VoiceJournalLanguages", "VoiceJournalStore", "VoiceJournalTerminal", "VoiceJournalSystem",
            "VoiceJournalSettings", "VoiceJournalTranscription", "VoiceJournalChat", "VoiceJournalMail",
        ]),
        // Pure functions from state to text: meters, progress, tables, charts.
        .target(name: "VoiceJournalTerminal"),
        // `serve`: the page that answers assignments. Its own target, so only it and the
        // executable depend on SwiftNIO.
        .target(name: "VoiceJournalServer", dependencies: [
            "VoiceJournalStore", "VoiceJournalRecording", "VoiceJournalTerminal", "VoiceJournalSystem",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "_NIOFileSystem", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "voicejournal", dependencies: [
            // The command builds on the product as any program does, plus the presentation modules.
            "VoiceJournal", "VoiceJournalSettings", "VoiceJournalPages", "VoiceJournalTerminal", "VoiceJournalServer", "VoiceJournalSystem", "VoiceJournalCMalloc",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            // libmpg123's notes quieted (see VoiceJournalCFFmpeg's mpg123_quiet.c).
            .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=mpg123_new"]),
            // The Swift runtime and Foundation linked in, not loaded: no dynamic symbol binding
            // for them at every start, which was most of a search's start-up and of a batch's
            // wait before its first upload (docs/benchmarks.md, start-up costs). `-static-stdlib`
            // at link time alone leaves the static Foundation libraries' own dependencies
            // (ICU, CoreFoundation) unresolved, so they are named, in one group for any order.
            // `--no-export-dynamic`: the executable's Swift symbols stay out of its dynamic
            // symbol table, which nothing loads against; otherwise the runtime's start-up `dladdr`
            // walks all of them, and every library's symbol lookups pass them (docs/benchmarks.md).
            // `-L linker`: `-lstdc++` finds the static libstdc++ there (see linker/libstdc++.so).
            .unsafeFlags(["-static-stdlib", "-L", Context.packageDirectory + "/linker", "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization", "-lswift_Concurrency", "-ldispatch", "-lBlocksRuntime", "-lswiftCore", "-Xlinker", "--end-group", "-lstdc++", "-lm", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
        ]),

        // Shared by the test targets: temporary homes, running the built binary, fixtures.
        .target(name: "VoiceJournalTestSupport", dependencies: [
            "VoiceJournalStore", "VoiceJournalChat", .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/VoiceJournalTestSupport"),
        .testTarget(name: "AudioTests", dependencies: ["VoiceJournalAudio", "VoiceJournalSystem", "VoiceJournalTestSupport"]),
        // libdbus-1's header (libdbus-1-dev), for the tests alone: SystemTests hold the System
        // module's own declarations of what it opens libdbus-1.so.3 for (LibDBus) against it.
        // pkg-config finds the header's folders and adds -ldbus-1, which is why no target of
        // the library uses it (see LibDBus); linking the test bundle with it costs nothing.
        .systemLibrary(name: "VoiceJournalCDBusHeader", path: "Tests/CDBusHeader", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // The system edge: desktop notifications through a private session bus (a real
        // dbus-daemon and a test notification service), libdbus's declarations.
        .testTarget(name: "SystemTests", dependencies: ["VoiceJournalSystem", "VoiceJournalCDBusHeader", "VoiceJournalTestSupport"]),
        .testTarget(name: "TranscriptionTests", dependencies: ["VoiceJournalTranscription", "VoiceJournalAudio", "VoiceJournalTestSupport"]),
        // Composing and sending mail: real libcurl against a real SMTP server (aiosmtpd, Tests/Servers/smtp_server.py).
        .testTarget(name: "MailTests", dependencies: ["VoiceJournalMail", "VoiceJournalSystem", "VoiceJournalSettings", "VoiceJournalPages", "VoiceJournalBatch", "voicejournal", "VoiceJournalTestSupport"]),
        .testTarget(name: "ChatTests", dependencies: ["VoiceJournalChat", "VoiceJournalStore", "VoiceJournalTestSupport"]),
        .testTarget(name: "StoreTests", dependencies: [
            "VoiceJournalStore", "VoiceJournalPages", "VoiceJournalTerminal", "VoiceJournalSystem", "VoiceJournalTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "QueueTests", dependencies: ["VoiceJournalQueue", "VoiceJournalBatch", "VoiceJournalRecording", "VoiceJournalTestSupport"]),
        .testTarget(name: "BatchTests", dependencies: ["VoiceJournalBatch", "VoiceJournalQueue", "VoiceJournalTranscription", "VoiceJournalTestSupport"]),
        .testTarget(name: "RecordingTests", dependencies: ["VoiceJournalRecording", "VoiceJournalQueue", "VoiceJournalTerminal", "VoiceJournalTestSupport"]),
        .testTarget(name: "SettingsTests", dependencies: [
            "VoiceJournalSettings", "VoiceJournalQueue", "VoiceJournalBatch", "VoiceJournalPages", "VoiceJournalTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The exit-code contract, in-process over the command's one error map.
        .testTarget(name: "CommandTests", dependencies: ["voicejournal", "VoiceJournalPages", "VoiceJournalSystem", "VoiceJournalTestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["VoiceJournalTerminal"]),
        .testTarget(name: "PlayerTests", dependencies: ["VoiceJournalPlayback", "VoiceJournalAudio", "VoiceJournalStore", "VoiceJournalTerminal", "VoiceJournalTestSupport"]),
        // Drive the built `voicejournal` binary as a subprocess (it is built before these run).
        .testTarget(name: "CLITests", dependencies: ["voicejournal", "VoiceJournalTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["voicejournal", "VoiceJournalTestSupport"]),
        // `serve` over real HTTP (the built binary, curl), and in-process through its builder
        // (Hummingbird's router test client) with its pure parts.
        .testTarget(name: "ServerTests", dependencies: [
            "VoiceJournalServer", "voicejournal", "VoiceJournalTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
    ]
)
