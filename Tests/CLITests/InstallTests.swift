import Foundation
import Testing
import VoiceJournalTestSupport

/// `scripts/install` into a temporary prefix and back out, and `scripts/package`'s .deb through
/// dpkg: what a person gets who installs voicejournal instead of running it from the checkout.
/// What is installed is the release build, as a user gets it (`scripts/test` makes it; a debug
/// build would load the toolchain's Swift libraries, and Debian's tools rightly object to that).
@Suite(.onTestThreads, .serialized) struct InstallTests {
    static let install = PackagePaths.root.appendingPathComponent("scripts/install").path
    static let package = PackagePaths.root.appendingPathComponent("scripts/package").path
    /// The Whisper environment the tests already use: the install links it instead of fetching
    /// the models from PyPI again (the fetch is whisper-setup's, tested with the checkout).
    static var whisperVenv: URL { WhisperServer.python.deletingLastPathComponent().deletingLastPathComponent() }
    /// The chat environment the tests already use, linked the same way: a test never builds
    /// llama-cpp-python (chat-setup's build is tested with the checkout, by scripts/test).
    static var chatVenv: URL { ChatServer.python.deletingLastPathComponent().deletingLastPathComponent() }

    /// `.build/release/voicejournal`, when it is there and newer than every source.
    static func releaseBinary() throws -> String {
        let binary = PackagePaths.root.appendingPathComponent(".build/release/voicejournal")
        let built = (try? binary.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
        let newer = try runTool("find", [PackagePaths.root.appendingPathComponent("Sources").path,
                                         PackagePaths.root.appendingPathComponent("Package.swift").path,
                                         "-newer", binary.path, "-print", "-quit"])
        guard built != nil, newer.isEmpty else {
            throw MissingRelease(path: binary.path)
        }
        return binary.path
    }

    @Test func installsIntoAPrefixRunsFromThereAndUninstallsToExactlyWhatWasThere() throws {
        let folder = try TemporaryFolder("vj-install")
        let home = folder.path("home")
        let prefix = home.appendingPathComponent(".local")
        // Something of the user's already in the prefix: it stays, and so do its folders.
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: prefix.appendingPathComponent("bin/other-tool"))
        // A journal in the default home, ~/.local/share/voicejournal: inside this prefix's share.
        let defaultHome = VoicejournalBinary(home: prefix.appendingPathComponent("share/voicejournal"))
        #expect(try defaultHome.run(["entry", "add", "--text", "before the install"]).status == 0)
        let before = try Self.listing(home, contents: true)
        let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": folder.path("config").path]

        let release = try Self.releaseBinary()
        let installed = try Self.run("/bin/bash", [Self.install, "--prefix", prefix.path, "--binary", release,
                                                   "--whisper-venv", Self.whisperVenv.path, "--whisper-model", "tiny.en",
                                                   "--chat-venv", Self.chatVenv.path, "--offline"],
                                     environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.contains("--uninstall --prefix \(prefix.path)"), "\(installed.stdout)")

        // --offline named the local server in the config file, as the one endpoint, and the
        // local chat server as its [chat] table.
        let config = folder.path("config/voicejournal/config.toml")
        let configText = try String(contentsOf: config, encoding: .utf8)
        #expect(configText.contains("[[endpoint]]\nbase_url = \"http://127.0.0.1:8178/v1\"\nmodel = \"tiny.en\""), "\(configText)")
        #expect(configText.contains("\n[chat]\nbase_url = \"http://127.0.0.1:8179/v1\"\nmodel = \"SmolLM2-135M-Instruct\"\n"
                                    + "schema = \"json_object\"\n"), "\(configText)")

        // The command, from another folder, with nothing but PATH (and HOME) set.
        let bin = prefix.appendingPathComponent("bin")
        let clean = ["PATH": "\(bin.path):/usr/bin:/bin", "HOME": home.path]
        let version = try Self.run("/usr/bin/env", ["voicejournal", "--version"], environment: clean, in: folder.url)
        let expected = try Self.run(release, ["--version"], environment: clean).stdout
        #expect(version.status == 0 && version.stdout == expected && !expected.isEmpty, "\(version.stderr)")
        // Stripped, and no $ORIGIN in its RUNPATH: it never loads a library from its own folder.
        let dynamic = try runTool("readelf", ["-S", "-d", bin.appendingPathComponent("voicejournal").path])
        #expect(!dynamic.contains(".symtab") && !dynamic.contains("$ORIGIN"), "\(dynamic.suffix(2000))")

        // A journal kept with the installed command.
        let journal = folder.path("journal")
        let added = try Self.run("/usr/bin/env", ["voicejournal", "--home", journal.path, "entry", "add", "--text", "kept"],
                                 environment: clean)
        #expect(added.status == 0, "\(added.stderr)")
        let journalBefore = try Self.listing(journal, contents: true)

        // The manual page renders; man finds it from PATH (PREFIX/bin -> PREFIX/share/man).
        let page = try Self.run("/usr/bin/env", ["man", "-l", prefix.appendingPathComponent("share/man/man1/voicejournal.1").path],
                                environment: clean.merging(["MANWIDTH": "80", "MANPAGER": "cat"]) { $1 })
        #expect(page.status == 0 && page.stdout.contains("voicejournal") && page.stdout.contains("SYNOPSIS"), "\(page.stderr)")
        let found = try Self.run("/usr/bin/env", ["man", "-w", "voicejournal"], environment: clean)
        #expect(found.stdout.hasPrefix(prefix.path), "\(found.stdout) \(found.stderr)")

        try checkCompletions(prefix: prefix, scratch: folder.path("shells"), clean: clean)
        try checkUnits(prefix: prefix, folder: folder)
        try checkWhisperServer(bin: bin, clean: clean)
        try checkChatServer(bin: bin, clean: clean)

        // A second run upgrades in place: the same files, the same manifest.
        let manifest = prefix.appendingPathComponent("lib/voicejournal/install-manifest")
        let firstManifest = try String(contentsOf: manifest, encoding: .utf8)
        let again = try Self.run("/bin/bash", [Self.install, "--prefix", prefix.path, "--binary", release,
                                               "--no-whisper", "--no-chat", "--offline"], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: config, encoding: .utf8) == configText, "a config naming the server is left alone")
        let shown = try Self.run(bin.appendingPathComponent("voicejournal").path, ["config", "show"],
                                 environment: clean.merging(["XDG_CONFIG_HOME": folder.path("config").path]) { $1 })
        #expect(shown.stdout.contains("http://127.0.0.1:8178/v1  model tiny.en"), "\(shown.stdout) \(shown.stderr)")
        #expect(try String(contentsOf: manifest, encoding: .utf8) == firstManifest)

        let removed = try Self.run("/bin/bash", [Self.install, "--uninstall", "--prefix", prefix.path], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        let after = try Self.listing(home, contents: true)
        #expect(after == before, "appeared: \(after.filter { !before.contains($0) }) gone: \(before.filter { !after.contains($0) })")
        #expect(try Self.listing(journal, contents: true) == journalBefore)
        #expect(try String(contentsOf: config, encoding: .utf8) == configText, "the config file is the user's: kept")
        #expect(FileManager.default.fileExists(atPath: Self.whisperVenv.appendingPathComponent("bin/python").path),
                "an environment given with --whisper-venv is the user's: kept")
        #expect(FileManager.default.fileExists(atPath: Self.chatVenv.appendingPathComponent("bin/python").path),
                "an environment given with --chat-venv is the user's: kept")
        let twice = try Self.run("/bin/bash", [Self.install, "--uninstall", "--prefix", prefix.path], environment: environment)
        #expect(twice.status == 1 && twice.stderr.contains("nothing to uninstall"), "\(twice.stderr)")
    }

    /// A run given --whisper-venv (and --chat-venv) after one without lists as a link the path
    /// the first listed as the environment's tree: the link it has just made stays, and
    /// --uninstall removes that link, not the environment it leads to.
    @Test func aSecondRunGivenWhisperVenvKeepsTheLinkItMadeAndUninstallLeavesTheEnvironment() throws {
        let folder = try TemporaryFolder("vj-install-venv")
        let prefix = folder.path("prefix")
        let venv = folder.path("venv"), chatVenv = folder.path("chat-venv")
        for environment in [venv, chatVenv] {
            try FileManager.default.createDirectory(at: environment.appendingPathComponent("bin"), withIntermediateDirectories: true)
            try Data("#!/bin/sh\n".utf8).write(to: environment.appendingPathComponent("bin/python"))
        }
        let environment = ["HOME": folder.path("home").path, "PATH": "/usr/bin:/bin"]
        let release = try Self.releaseBinary()
        let first = try Self.run("/bin/bash", [Self.install, "--prefix", prefix.path, "--binary", release, "--no-whisper", "--no-chat"],
                                 environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try Self.run("/bin/bash", [Self.install, "--prefix", prefix.path, "--binary", release, "--no-whisper",
                                                "--whisper-venv", venv.path, "--no-chat", "--chat-venv", chatVenv.path],
                                  environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let link = prefix.appendingPathComponent("lib/voicejournal/whisper-venv").path
        let chatLink = prefix.appendingPathComponent("lib/voicejournal/chat-venv").path
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == venv.path)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: chatLink)) == chatVenv.path)
        let before = try Self.listing(venv, contents: true), chatBefore = try Self.listing(chatVenv, contents: true)

        let removed = try Self.run("/bin/bash", [Self.install, "--uninstall", "--prefix", prefix.path], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: chatLink)) == nil)
        #expect(try Self.listing(venv, contents: true) == before)
        #expect(try Self.listing(chatVenv, contents: true) == chatBefore)
    }

    /// What is installed speaks for itself, as a person reads it with no source tree: the
    /// commands' `--help`, the manual pages, the units and the docs name the installed commands,
    /// never `scripts/...` or `whisper-server/whisper-server`; the docs keep the source tree's
    /// layout, so every relative link leads to an installed file, and leave the developer pages
    /// out. The manifest lists each doc and the uninstaller, which removes the whole install.
    @Test func theInstalledCommandsManualPagesAndDocsNameNothingOfTheSourceTree() throws {
        let folder = try TemporaryFolder("vj-install-own")
        let home = folder.path("home")
        let prefix = home.appendingPathComponent(".local")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let before = try Self.listing(home, contents: true)
        let installed = try Self.run("/bin/bash", [Self.install, "--prefix", prefix.path, "--binary", Self.releaseBinary(),
                                                   "--no-whisper", "--no-chat"],
                                     environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        #expect(installed.status == 0, "\(installed.stderr)")
        let bin = prefix.appendingPathComponent("bin")
        let clean = ["PATH": "\(bin.path):/usr/bin:/bin", "HOME": home.path]
        let checkout = ["scripts/", "whisper-server/whisper-", ".venv-whisper", "chat-server/chat-", ".venv-chat"]

        // --help, by the installed names (the servers' need no environment for it).
        for (command, names) in [("voicejournal", "voicejournal-whisper-server"),
                                 ("voicejournal-whisper-setup", "usage: voicejournal-whisper-setup"),
                                 ("voicejournal-whisper-server", "usage: voicejournal-whisper-server"),
                                 ("voicejournal-chat-setup", "usage: voicejournal-chat-setup"),
                                 ("voicejournal-chat-server", "usage: voicejournal-chat-server")] {
            let help = try Self.run("/usr/bin/env", [command, "--help"], environment: clean, in: folder.url)
            let said = help.stdout + help.stderr
            #expect(help.status == 0 && said.contains(names), "\(command) --help: \(said)")
            for path in checkout { #expect(!said.contains(path), "\(command) --help names \(path): \(said)") }
        }
        let setup = try Self.run("/usr/bin/env", ["voicejournal-whisper-setup", "--help"], environment: clean).stdout
        #expect(setup.contains("voicejournal-whisper-server") && setup.contains(prefix.appendingPathComponent("lib/voicejournal/whisper-venv").path),
                "\(setup)")
        let server = try Self.run("/usr/bin/env", ["voicejournal-whisper-server", "--help"], environment: clean).stdout
        #expect(server.contains("voicejournal-whisper-setup"), "\(server)")
        let chatSetup = try Self.run("/usr/bin/env", ["voicejournal-chat-setup", "--help"], environment: clean).stdout
        #expect(chatSetup.contains("voicejournal-chat-server") && chatSetup.contains(prefix.appendingPathComponent("lib/voicejournal/chat-venv").path),
                "\(chatSetup)")
        let chatServer = try Self.run("/usr/bin/env", ["voicejournal-chat-server", "--help"], environment: clean).stdout
        #expect(chatServer.contains("voicejournal-chat-setup"), "\(chatServer)")

        // The manual pages and the units.
        let manuals = prefix.appendingPathComponent("share/man/man1")
        for page in try FileManager.default.contentsOfDirectory(atPath: manuals.path) {
            let text = try String(contentsOf: manuals.appendingPathComponent(page), encoding: .utf8)
            for path in checkout { #expect(!text.contains(path), "\(page) names \(path)") }
        }
        let unit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/voicejournal-whisper.service"), encoding: .utf8)
        #expect(unit.contains("\nDocumentation=man:voicejournal-whisper-server(1)"), "\(unit)")
        let chatUnit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/voicejournal-chat.service"), encoding: .utf8)
        #expect(chatUnit.contains("\nDocumentation=man:voicejournal-chat-server(1)"), "\(chatUnit)")
        try checkTimer("voicejournal-reflect-week", runs: "reflect --week last", at: "Mon *-*-* 08:00:00", persistent: true,
                       prefix: prefix, folder: folder, installed: installed.stdout)
        try checkTimer("voicejournal-nudge", runs: "nudge", at: "*-*-* 08..23:00,30:00", prefix: prefix, folder: folder,
                       installed: installed.stdout)
        try checkTimer("voicejournal-remind", runs: "remind --due", at: "*-*-* 10:00:00", prefix: prefix, folder: folder,
                       installed: installed.stdout)

        // The docs: the source tree's layout, links that resolve, no developer page.
        let docs = prefix.appendingPathComponent("share/doc/voicejournal")
        let files = try Self.run("/usr/bin/find", [docs.path, "-type", "f", "-printf", "%P\n"]).stdout
            .split(separator: "\n").map(String.init).sorted()
        #expect(files.contains("README.md") && files.contains("docs/install.md") && files.contains("docs/serve-page.png"), "\(files)")
        #expect(!files.contains("docs/testing.md") && !files.contains("docs/benchmarks.md"), "\(files)")
        var links = 0
        for page in files where page.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
            for path in checkout + ["<!-- checkout", "<!-- installed"] { #expect(!text.contains(path), "\(page) names \(path)") }
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.hasPrefix("#"), !target.hasPrefix("http://"), !target.hasPrefix("https://"), !target.hasPrefix("mailto:") else { continue }
                let file = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let linked = docs.appendingPathComponent(page).deletingLastPathComponent().appendingPathComponent(String(file)).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: linked.path), "\(page) links to \(target), which is not installed")
                links += 1
            }
        }
        #expect(links > 40, "only \(links) relative links found")
        let manifest = try String(contentsOf: prefix.appendingPathComponent("lib/voicejournal/install-manifest"), encoding: .utf8)
        for file in files { #expect(manifest.contains("f \(docs.path)/\(file)\n"), "the manifest lacks \(file)") }
        #expect(manifest.contains("d \(docs.path)/docs\n"))

        // The uninstaller it installed removes all of it, itself too.
        let uninstaller = prefix.appendingPathComponent("lib/voicejournal/uninstall")
        #expect(manifest.contains("f \(uninstaller.path)\n"))
        let removed = try Self.run(uninstaller.path, [], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"], in: folder.url)
        #expect(removed.status == 0, "\(removed.stderr)")
        let after = try Self.listing(home, contents: true)
        #expect(after == before, "left: \(after.filter { !before.contains($0) })")
    }

    /// Each shell's file is where that shell looks, and loads: bash-completion finds it under
    /// ~/.local/share with no setting, fish too; zsh once the folder is on fpath (the installer
    /// says so). Each file also parses (`bash -n`, `zsh -n`, `fish --no-execute`).
    /// The shells keep their own state (zsh's dump, fish's config folder) in `scratch`, not in
    /// the home whose listing must come back unchanged.
    func checkCompletions(prefix: URL, scratch: URL, clean: [String: String]) throws {
        let share = prefix.appendingPathComponent("share")
        let bashFile = share.appendingPathComponent("bash-completion/completions/voicejournal").path
        #expect(try Self.run("/bin/bash", ["-n", bashFile], environment: clean).status == 0)
        if FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") {
            let bash = try Self.run("/bin/bash", ["-c", "source /usr/share/bash-completion/bash_completion; "
                                                  + "__load_completion voicejournal && complete -p voicejournal"], environment: clean)
            #expect(bash.stdout.contains("-F _voicejournal voicejournal"), "\(bash.stdout) \(bash.stderr)")
        }
        let zshFolder = share.appendingPathComponent("zsh/site-functions")
        if let zsh = Self.which("zsh") {
            #expect(try Self.run(zsh, ["-n", zshFolder.appendingPathComponent("_voicejournal").path], environment: clean).status == 0)
            let loaded = try Self.run(zsh, ["-fc", "fpath=(\(zshFolder.path) $fpath); autoload -Uz compinit; "
                                            + "compinit -u -d \(scratch.path)/zcompdump; print -r -- ${_comps[voicejournal]}"],
                                      environment: clean)
            #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_voicejournal", "\(loaded.stderr)")
        }
        if let fish = Self.which("fish") {
            let fishFile = share.appendingPathComponent("fish/vendor_completions.d/voicejournal.fish").path
            #expect(try Self.run(fish, ["--no-execute", fishFile], environment: clean).status == 0)
            let completed = try Self.run(fish, ["-c", "complete -C'voicejournal pl'"],
                                         environment: clean.merging(["XDG_CONFIG_HOME": scratch.path]) { $1 })
            #expect(completed.stdout.hasPrefix("play\t"), "\(completed.stdout) \(completed.stderr)")
        }
    }

    /// `systemd-analyze verify` accepts the three units as the user's manager would load them:
    /// their commands exist and run, their manual page is found.
    func checkUnits(prefix: URL, folder: TemporaryFolder) throws {
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in ["voicejournal-whisper.service", "voicejournal-chat.service", "voicejournal-serve.service"] {
            let unit = prefix.appendingPathComponent("share/systemd/user/\(name)")
            let text = try String(contentsOf: unit, encoding: .utf8)
            #expect(text.contains("ExecStart=\(prefix.path)/bin/") && text.contains("Restart=on-failure"))
            let verified = try Self.run("/usr/bin/systemd-analyze", ["--user", "verify", unit.path],
                                        environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path,
                                                      "MANPATH": prefix.appendingPathComponent("share/man").path + ":"])
            #expect(verified.status == 0 && verified.stderr.isEmpty, "\(name): \(verified.stderr)")
        }
    }

    /// A timer and its one-shot service: the weekly reflection (Monday mornings, a missed one
    /// made up), the nudge to journal (every half hour of the day: nudge itself waits for
    /// [nudge] after), the reminders due (each morning). The service runs the installed
    /// command, the timer starts it; `systemd-analyze verify` loads both as the user's manager
    /// would. Installed, not enabled (the installer says how), and listed in the manifest, so
    /// --uninstall removes them.
    func checkTimer(_ name: String, runs command: String, at calendar: String, persistent: Bool = false, prefix: URL,
                    folder: TemporaryFolder, installed: String) throws {
        let units = prefix.appendingPathComponent("share/systemd/user")
        let service = units.appendingPathComponent("\(name).service")
        let timer = units.appendingPathComponent("\(name).timer")
        let serviceText = try String(contentsOf: service, encoding: .utf8)
        let timerText = try String(contentsOf: timer, encoding: .utf8)
        #expect(serviceText.contains("\nExecStart=\(prefix.path)/bin/voicejournal \(command)\n")
                && serviceText.contains("\nType=oneshot\n"), "\(serviceText)")
        #expect(timerText.contains("\nOnCalendar=\(calendar)\n") && timerText.contains("\nUnit=\(name).service\n")
                && (!persistent || timerText.contains("\nPersistent=true\n")), "\(timerText)")
        #expect(installed.contains("systemctl --user enable --now \(name).timer"), "\(installed)")
        let manifest = try String(contentsOf: prefix.appendingPathComponent("lib/voicejournal/install-manifest"), encoding: .utf8)
        #expect(manifest.contains("f \(service.path)\n") && manifest.contains("f \(timer.path)\n"), "\(manifest)")
        let runtime = folder.path("runtime-\(name)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verified = try Self.run("/usr/bin/systemd-analyze", ["--user", "verify", timer.path, service.path],
                                    environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path,
                                                  "MANPATH": prefix.appendingPathComponent("share/man").path + ":"])
        #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stderr)")
    }

    /// The installed server, started by its installed name with a clean environment, finds its
    /// environment through the prefix and answers /health.
    func checkWhisperServer(bin: URL, clean: [String: String]) throws {
        try checkInstalledServer(bin.appendingPathComponent("voicejournal-whisper-server"), ["--model", "tiny.en"],
                                 clean: clean, path: "/health", answer: ["\"ok\"", "tiny.en"])
    }

    /// The installed chat server likewise (its environment, and the model in it, through the
    /// prefix's chat-venv link) lists its model at /v1/models.
    func checkChatServer(bin: URL, clean: [String: String]) throws {
        try checkInstalledServer(bin.appendingPathComponent("voicejournal-chat-server"), [],
                                 clean: clean, path: "/v1/models", answer: ["\"SmolLM2-135M-Instruct\""])
    }

    /// Starts `server` on a free port (it prints the port once ready), asks `path` and expects
    /// each of `answer` in what it says.
    func checkInstalledServer(_ server: URL, _ arguments: [String], clean: [String: String], path: String,
                              answer: [String]) throws {
        let process = Process()
        process.executableURL = server
        process.arguments = ["--port", "0"] + arguments + ["--exit-with-stdin"]
        process.environment = clean
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        defer {
            // Its end of stdin closed ends it (--exit-with-stdin): a SIGTERM could find the signal
            // blocked, inherited from a test thread that blocks it.
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        watchdog.cancel()
        let port = Int(String(decoding: line, as: UTF8.self))
        #expect(port != nil, "\(server.lastPathComponent): no port printed")
        guard let port else { return }
        let said = try runTool("curl", ["-sf", "--max-time", "10", "http://127.0.0.1:\(port)\(path)"])
        #expect(answer.allSatisfy { said.contains($0) }, "\(server.lastPathComponent): \(said)")
    }

    /// The .deb: dpkg-deb reads it, lintian has no error, dpkg installs it (as root), the command
    /// runs from /usr/bin, dpkg removes it.
    @Test(.enabled(if: getuid() == 0 && InstallTests.which("dpkg-shlibdeps") != nil, "dpkg -i needs root and dpkg-dev"))
    func packageBuildsADebThatDpkgInstallsRunsAndRemoves() throws {
        let folder = try TemporaryFolder("vj-package")
        let release = try Self.releaseBinary()
        let built = try Self.run("/bin/bash", [Self.package, "--binary", release,
                                               "--output", folder.url.path, "--lintian"],
                                 environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(!built.stderr.contains("E: "), "lintian: \(built.stderr)")
        let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try Self.run(release, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/voicejournal_\(version)_amd64.deb"), "\(deb)")
        let info = try runTool("dpkg-deb", ["--info", deb])
        #expect(info.contains("Package: voicejournal") && info.contains("Version: \(version)"))
        for needed in ["libasound2", "libsndfile1", "libsqlite3-0", "libssl3", "libsamplerate0"] {
            #expect(info.contains(needed), "Depends lacks \(needed)")
        }
        #expect(info.contains("Recommends: libcurl4") && info.contains("libavformat") && info.contains("libdbus-1-3"))
        let contents = try runTool("dpkg-deb", ["--contents", deb])
        for path in ["./usr/bin/voicejournal", "./usr/bin/voicejournal-whisper-setup", "./usr/share/man/man1/voicejournal.1.gz",
                     "./usr/bin/voicejournal-chat-setup", "./usr/bin/voicejournal-chat-server",
                     "./usr/share/man/man1/voicejournal-chat-server.1.gz", "./usr/lib/systemd/user/voicejournal-chat.service",
                     "./usr/share/bash-completion/completions/voicejournal", "./usr/share/zsh/vendor-completions/_voicejournal",
                     "./usr/share/fish/vendor_completions.d/voicejournal.fish", "./usr/lib/systemd/user/voicejournal-serve.service",
                     "./usr/lib/systemd/user/voicejournal-whisper.service", "./usr/share/doc/voicejournal/copyright",
                     "./usr/lib/systemd/user/voicejournal-reflect-week.service", "./usr/lib/systemd/user/voicejournal-reflect-week.timer",
                     "./usr/lib/systemd/user/voicejournal-nudge.service", "./usr/lib/systemd/user/voicejournal-nudge.timer",
                     "./usr/lib/systemd/user/voicejournal-remind.service", "./usr/lib/systemd/user/voicejournal-remind.timer"] {
            #expect(contents.contains(path), "the package lacks \(path)")
        }

        let installed = try Self.run("/usr/bin/dpkg", ["-i", deb], environment: Self.rootPath)
        #expect(installed.status == 0, "\(installed.stderr)")
        defer { _ = try? Self.run("/usr/bin/dpkg", ["-r", "voicejournal"], environment: Self.rootPath) }
        let ran = try Self.run("/usr/bin/voicejournal", ["--version"], environment: ["PATH": "/usr/bin:/bin"], in: folder.url)
        #expect(ran.status == 0 && ran.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == version, "\(ran.stderr)")
        let removed = try Self.run("/usr/bin/dpkg", ["-r", "voicejournal"], environment: Self.rootPath)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/voicejournal"))
        #expect(!FileManager.default.fileExists(atPath: "/usr/lib/systemd/user/voicejournal-serve.service"))
    }

    // MARK: - helpers

    /// dpkg runs ldconfig and start-stop-daemon from the sbin folders.
    static let rootPath = ["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]

    struct MissingRelease: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "no up-to-date release build at \(path): scripts/test makes it (or: swift build -c release --product voicejournal)"
        }
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` with exactly `environment` (nothing inherited), in `folder`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"],
                    in folder: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let folder { process.currentDirectoryURL = folder }
        let outputs = try TemporaryFolder("vj-run")
        let out = outputs.path("out"), err = outputs.path("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                       stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Every path under `root` with its kind (and, with `contents`, a digest of each file).
    static func listing(_ root: URL, contents: Bool = false) throws -> [String] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        let format = contents ? "%y %P %s\n" : "%y %P\n"
        var lines = try runTool("find", [root.path, "-printf", format]).split(separator: "\n").map(String.init)
        if contents {
            lines += try runTool("find", [root.path, "-type", "f", "-exec", "sha256sum", "{}", "+"]).split(separator: "\n").map(String.init)
        }
        return lines.sorted()
    }

    static func which(_ tool: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
