import Foundation
import Testing
import VoiceJournalTestSupport

/// `scripts/install` over a prefix someone has tampered with: symlinked folders inside it that
/// lead to a folder outside, and manifest lines through them or naming trees the installer never
/// made. The folder outside (and the journal in the default home) must come out byte for byte
/// as it went in; what the installer may still do safely, it does, and it names what it refused.
@Suite(.onTestThreads, .serialized) struct InstallTamperTests {
    @Test func uninstallThroughASymlinkedFolderInThePrefixLeavesTheFolderItLeadsToAndRemovesTheRest() throws {
        let layout = try Layout()
        #expect(try layout.install().status == 0)
        try layout.link("share/doc/voicejournal/evil")
        let evil = layout.path("share/doc/voicejournal/evil").path
        try layout.list("f \(evil)/README.md", "t \(evil)/folder", "d \(evil)/folder")
        let before = try InstallTests.listing(layout.victim, contents: true)

        let removed = try layout.uninstall()
        #expect(try InstallTests.listing(layout.victim, contents: true) == before)
        #expect(removed.status == 1)
        #expect(removed.stderr.contains("refused to remove \(evil)/README.md (and 2 more listed paths): \(evil) leads to ")
                && removed.stderr.contains(" through a symlink"), "\(removed.stderr)")
        // Everything else the install made is gone: only the link and the folders holding it stay.
        #expect(try InstallTests.listing(layout.prefix) == ["d ", "d share", "d share/doc", "d share/doc/voicejournal",
                                                            "l share/doc/voicejournal/evil"])
    }

    @Test func aTreeLineForPrefixShareLeavesTheJournalInTheDefaultHome() throws {
        let layout = try Layout()
        #expect(try layout.install().status == 0)
        // ~/.local/share/voicejournal: where the journal lives by default, inside the prefix's share.
        let journalHome = layout.path("share/voicejournal")
        #expect(try VoicejournalBinary(home: journalHome).run(["entry", "add", "--text", "mine"]).status == 0)
        try layout.list("t \(layout.path("share").path)")
        let before = try InstallTests.listing(journalHome, contents: true)

        let removed = try layout.uninstall()
        #expect(try InstallTests.listing(journalHome, contents: true) == before)
        #expect(removed.status == 1)
        #expect(removed.stderr.contains("refused to remove \(layout.path("share").path): the installer makes no tree there "
                                        + "(only \(layout.path("lib/voicejournal/whisper-venv").path) and "
                                        + "\(layout.path("lib/voicejournal/chat-venv").path))"), "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: layout.path("bin/voicejournal").path))
    }

    @Test func reinstallOverASymlinkedDocFolderWritesNothingAndUninstallLeavesTheForeignFolder() throws {
        let layout = try Layout()
        #expect(try layout.install().status == 0)
        try layout.link("share/doc/voicejournal")
        let victimBefore = try InstallTests.listing(layout.victim, contents: true)
        try layout.expectInstallRefused("share/doc/voicejournal/README.md")

        let doc = layout.path("share/doc/voicejournal").path
        let removed = try layout.uninstall()
        #expect(removed.status == 1 && removed.stderr.contains("refused to remove \(doc)/README.md"), "\(removed.stderr)")
        #expect(try InstallTests.listing(layout.victim, contents: true) == victimBefore)
    }

    @Test func installIntoAPrefixWhoseLibVoicejournalIsASymlinkWritesNoManifestThroughIt() throws {
        let layout = try Layout()
        try layout.link("lib/voicejournal")
        try layout.expectInstallRefused("lib/voicejournal/install-manifest")
    }

    @Test func uninstallWithLibVoicejournalMovedOutAndLinkedKeepsTheEnvironmentAndManifestBehindTheLink() throws {
        let layout = try Layout()
        #expect(try layout.install().status == 0)
        // The installer's folder moved elsewhere and linked back: the manifest is read through
        // the link, and what it lists there (itself, the uninstaller, whisper-venv, chat-venv) is
        // not the prefix's to delete.
        let share = layout.path("lib/voicejournal")
        try FileManager.default.moveItem(at: share.appendingPathComponent("install-manifest"),
                                         to: layout.victim.appendingPathComponent("install-manifest"))
        try layout.link("lib/voicejournal")
        let before = try InstallTests.listing(layout.victim, contents: true)

        let removed = try layout.uninstall()
        #expect(try InstallTests.listing(layout.victim, contents: true) == before)
        #expect(removed.status == 1)
        #expect(removed.stderr.contains("refused to remove \(share.path)/install-manifest (and 3 more listed paths): \(share.path) leads to "),
                "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: layout.path("bin/voicejournal").path))
    }

    // MARK: - the layout

    /// A prefix in a temporary home, and someone else's folder beside it (a README, a folder
    /// with a file, two Python environments), the place each tampered symlink leads to.
    struct Layout {
        let folder: TemporaryFolder
        let prefix: URL
        let victim: URL
        let environment: [String: String]

        init() throws {
            folder = try TemporaryFolder("vj-tamper")
            let home = folder.path("home")
            prefix = home.appendingPathComponent(".local")
            victim = folder.path("elsewhere")
            let files = FileManager.default
            try files.createDirectory(at: prefix, withIntermediateDirectories: true)
            try files.createDirectory(at: victim.appendingPathComponent("folder"), withIntermediateDirectories: true)
            try files.createDirectory(at: victim.appendingPathComponent("whisper-venv/bin"), withIntermediateDirectories: true)
            try files.createDirectory(at: victim.appendingPathComponent("chat-venv/bin"), withIntermediateDirectories: true)
            try Data("someone else's README\n".utf8).write(to: victim.appendingPathComponent("README.md"))
            try Data("kept\n".utf8).write(to: victim.appendingPathComponent("folder/notes.txt"))
            try Data("#!/bin/sh\n".utf8).write(to: victim.appendingPathComponent("whisper-venv/bin/python"))
            try Data("#!/bin/sh\n".utf8).write(to: victim.appendingPathComponent("chat-venv/bin/python"))
            environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": folder.path("config").path]
        }

        func path(_ relative: String) -> URL { prefix.appendingPathComponent(relative) }

        /// The release binary, and no Whisper or chat environment: nothing is fetched from PyPI
        /// or built.
        func install() throws -> InstallTests.Outcome {
            try InstallTests.run("/bin/bash", [InstallTests.install, "--prefix", prefix.path,
                                               "--binary", InstallTests.releaseBinary(), "--no-whisper", "--no-chat"],
                                 environment: environment)
        }

        func uninstall() throws -> InstallTests.Outcome {
            try InstallTests.run("/bin/bash", [InstallTests.install, "--uninstall", "--prefix", prefix.path], environment: environment)
        }

        /// An install refused at `target` (its folder a symlink), having written nothing: the
        /// prefix and the victim as they were.
        func expectInstallRefused(_ target: String) throws {
            let victimBefore = try InstallTests.listing(victim, contents: true)
            let prefixBefore = try InstallTests.listing(prefix, contents: true)
            let installed = try install()
            #expect(installed.status == 1)
            let folder = path(target).deletingLastPathComponent().path
            #expect(installed.stderr.contains("refused to install \(path(target).path): \(folder) leads to ")
                    && installed.stderr.contains("nothing was installed"), "\(installed.stderr)")
            #expect(try InstallTests.listing(victim, contents: true) == victimBefore)
            #expect(try InstallTests.listing(prefix, contents: true) == prefixBefore)
        }

        /// `relative` (a folder the install made, or a new name) becomes a symlink to the victim.
        func link(_ relative: String) throws {
            let link = path(relative)
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        }

        /// Lines added to the manifest, as a damaged or hostile one would have them.
        func list(_ lines: String...) throws {
            let manifest = try FileHandle(forWritingTo: path("lib/voicejournal/install-manifest"))
            defer { try? manifest.close() }
            try manifest.seekToEnd()
            try manifest.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        }
    }
}
