import Foundation
import Testing
import VoiceJournalStore
import VoiceJournalTestSupport

/// docs/voicejournal.1 is made from the command definitions by scripts/make-manual. These tests
/// hold it against what the built binary says of itself (`--experimental-dump-help`, the
/// description the page is generated from), so they fail when a command, an option or a help
/// text changed and the page was not made again. The page's date is not compared. They also
/// hold what the page says beyond the commands (dist/man/voicejournal.sections.mdoc), and that
/// no page voicejournal installs points into the source tree.
@Suite(.onTestThreads) struct ManualPageTests {
    static let page = PackagePaths.root.appendingPathComponent("docs/voicejournal.1")
    static let outOfDate = "docs/voicejournal.1 is out of date with the commands: run scripts/make-manual"

    @Test func pageHasEveryCommandAndOptionOfTheBinary() throws {
        let expected = try HelpOutline.ofBinary().map(\.name)
        let written = try HelpOutline.ofManualPage(at: Self.page).map(\.name)
        let missing = expected.filter { !written.contains($0) }
        let stale = written.filter { !expected.contains($0) }
        #expect(missing.isEmpty, "\(Self.outOfDate); not on the page: \(missing)")
        #expect(stale.isEmpty, "\(Self.outOfDate); on the page but gone from the commands: \(stale)")
        if missing.isEmpty, stale.isEmpty {
            let moved = zip(written, expected).first { $0 != $1 }
            #expect(moved == nil, "\(Self.outOfDate); the order differs from \(moved?.0 ?? "")")
        }
    }

    @Test func pageHasEveryHelpTextOfTheBinary() throws {
        let written = Dictionary(try HelpOutline.ofManualPage(at: Self.page).map { ($0.name, $0.text) }) { first, _ in first }
        for entry in try HelpOutline.ofBinary() {
            guard let text = written[entry.name] else { continue } // named by the test above
            // The generator drops characters outside ASCII: help texts are written in ASCII.
            #expect(text == entry.text, "\(Self.outOfDate) (help texts are ASCII: the generator drops other characters); \(entry.name)")
        }
    }

    /// `man ./docs/voicejournal.1` formats with groff; its warnings (`-ww`) are defects of the page.
    @Test func pageRendersWithoutWarnings() throws {
        let warnings = try runTool("sh", ["-c", #"groff -t -mandoc -Tutf8 -ww -z "$0" 2>&1"#, Self.page.path])
        #expect(warnings.isEmpty, "groff warns: \(warnings)")
        let rendered = try runTool("groff", ["-t", "-mandoc", "-Tascii", "-P-cbou", Self.page.path])
        #expect(rendered.contains("voicejournal -- Record your voice"))
        #expect(rendered.contains("EXIT STATUS"))
    }

    /// `--help` shows an option's values and default; the page says the same, so the moods and
    /// themes are on it, and `record`'s defaults.
    @Test func pageListsEachOptionsValuesAndDefaultAsHelpDoes() throws {
        let written = Dictionary(try HelpOutline.ofManualPage(at: Self.page).map { ($0.name, $0.text) }) { first, _ in first }
        let mood = written["voicejournal record --mood <mood>"] ?? ""
        let theme = written["voicejournal entry add --theme <theme>"] ?? ""
        for value in Mood.allCases.map(\.rawValue) { #expect(mood.contains(value), "\(mood)") }
        for value in Theme.allCases.map(\.rawValue) { #expect(theme.contains(value), "\(theme)") }
        #expect(mood.contains("(values: \(Mood.allCases.map(\.rawValue).joined(separator: ", ")))"), "\(mood)")
        #expect(written["voicejournal record --max-duration <sec>"]?.contains("(default: 180") == true)
        #expect(written["voicejournal record --channels <n>"]?.contains("(default: 1)") == true)
        #expect(written["voicejournal record --format <format>"]?.contains("(default: wav)") == true)
    }

    /// ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES and SEE ALSO, in mdoc's order. ENVIRONMENT has
    /// every variable the user's docs tell people to set (the developer pages aside), each an
    /// `.It Ev` item; the Whisper server's own variables are on its page.
    @Test func pageHasEnvironmentFilesExamplesInMdocsOrder() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let sections = text.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }
            .map { $0.dropFirst(4).replacingOccurrences(of: "\"", with: "") }
        #expect(sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"])
        let environment = Self.section("ENVIRONMENT", of: text)
        let listed = Set(environment.matches(of: /(?m)^\.It Ev (.*)$/).flatMap {
            $0.1.split(separator: ",").map { $0.replacingOccurrences(of: "Ev", with: "").trimmingCharacters(in: .whitespaces) }
        })
        var named: Set<String> = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "VOICEJOURNAL_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
                                  "VOICEJOURNAL_MODEL", "VOICEJOURNAL_LOG_LEVEL", "NO_COLOR", "VISUAL", "EDITOR"]
        let docs = PackagePaths.root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") && !["testing.md", "benchmarks.md"].contains($0) }
            .map { docs.appendingPathComponent($0) } + [PackagePaths.root.appendingPathComponent("README.md")]
        var serverOwn: Set<String> = []
        for page in pages {
            for match in try String(contentsOf: page, encoding: .utf8).matches(of: /\b(?:VOICEJOURNAL|OPENAI|XDG)_[A-Z_]+/) {
                let name = String(match.0)
                if name.hasPrefix("VOICEJOURNAL_WHISPER_") { serverOwn.insert(name) } else { named.insert(name) }
            }
        }
        #expect(named.subtracting(listed).isEmpty, "ENVIRONMENT lacks \(named.subtracting(listed).sorted()): \(listed.sorted())")
        let serverPage = try String(contentsOf: PackagePaths.root.appendingPathComponent("dist/man/voicejournal-whisper-server.1"),
                                    encoding: .utf8)
        for name in serverOwn.union(["VOICEJOURNAL_WHISPER_VENV"]) { #expect(serverPage.contains(".It Ev \(name)")) }
        let files = Self.section("FILES", of: text)
        for path in ["~/.local/share/voicejournal/", "<home>/voicejournal.sqlite", "<home>/audio/YYYY/MM/", "~/.config/voicejournal/config.toml"] {
            #expect(files.contains(".It Pa \(path)"), "FILES lacks \(path)")
        }
        let examples = Self.section("EXAMPLES", of: text)
        #expect(examples.contains(".Bd -literal") && examples.contains("voicejournal record") && examples.contains("voicejournal-whisper-server"))
        for code in ["0", "1", "2", "3", "130"] { #expect(Self.section("EXIT STATUS", of: text).contains(".It \(code)\n")) }
    }

    /// The pages installed with voicejournal name the installed commands, never the source tree's
    /// paths (`scripts/...`, `whisper-server/whisper-server`, `chat-server/chat-server`).
    @Test func installedPagesNameNothingOfTheSourceTree() throws {
        let pages = [Self.page] + (try FileManager.default.contentsOfDirectory(atPath: PackagePaths.root.appendingPathComponent("dist/man").path))
            .filter { $0.hasSuffix(".1") }.map { PackagePaths.root.appendingPathComponent("dist/man/\($0)") }
        #expect(pages.count == 5)
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for checkout in ["scripts/", "whisper-server/whisper-", "chat-server/chat-"] {
                #expect(!text.contains(checkout), "\(page.lastPathComponent) names \(checkout)")
            }
            let warnings = try runTool("sh", ["-c", #"groff -t -mandoc -Tutf8 -ww -z "$0" 2>&1"#, page.path])
            #expect(warnings.isEmpty, "\(page.lastPathComponent): groff warns: \(warnings)")
        }
    }

    /// The lines of one `.Sh` section, its title line left out.
    static func section(_ title: String, of page: String) -> String {
        var lines: [Substring] = [], inside = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".Sh ") { inside = line.dropFirst(4).replacingOccurrences(of: "\"", with: "") == title; continue }
            if inside { lines.append(line) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A command tree flattened to one entry per command and per shown argument, in page order:
/// `voicejournal queue run` for a command, `voicejournal queue run --jobs <jobs>` for an
/// option; `text` is its help (abstract and discussion) with white space collapsed.
struct HelpOutline: Equatable {
    let name: String
    let text: String

    // MARK: The binary's own description (ArgumentParserToolInfo's V0 JSON)

    struct Command: Decodable {
        let commandName: String
        let aliases: [String]?
        let abstract: String?
        let discussion: String?
        let arguments: [Argument]?
        let subcommands: [Command]?
    }

    struct Argument: Decodable {
        struct Name: Decodable { let kind: String; let name: String }
        let kind: String
        let names: [Name]?
        let valueName: String?
        let isRepeating: Bool
        let shouldDisplay: Bool
        let abstract: String?
        let discussion: String?
        let defaultValue: String?
        let allValues: [String]?
        let allValueDescriptions: [String: String]?

        /// What `--help` shows after the abstract, and scripts/make-manual after it on the page:
        /// `(values: wav, flac; default: wav)`, from swift-argument-parser's HelpGenerator.
        var valuesAndDefault: String? {
            let values = allValueDescriptions == nil ? (allValues ?? []).filter { !$0.isEmpty } : []
            let shown = (values.isEmpty ? [] : ["values: " + values.joined(separator: ", ")])
                + ((defaultValue ?? "").isEmpty ? [] : ["default: " + (defaultValue ?? "")])
            return shown.isEmpty ? nil : "(" + shown.joined(separator: "; ") + ")"
        }

        /// `-h, --help`, `--home <dir>`, `<files...>`: short names first, as the page lists them.
        var label: String {
            let value = "<\(valueName ?? "")\(isRepeating ? "..." : "")>"
            let spelled = (names ?? []).filter { $0.kind == "short" } + (names ?? []).filter { $0.kind != "short" }
            let flags = spelled.map { ($0.kind == "long" ? "--" : "-") + $0.name }.joined(separator: ", ")
            switch kind {
            case "positional": return value
            case "option": return "\(flags) \(value)"
            default: return flags
            }
        }
    }

    struct Dump: Decodable { let command: Command }

    static func ofBinary() throws -> [HelpOutline] {
        let json = try runTool(VoicejournalBinary.executable.path, ["--experimental-dump-help"])
        let root = try JSONDecoder().decode(Dump.self, from: Data(json.utf8)).command
        return outline(of: root, path: root.commandName)
    }

    private static func outline(of command: Command, path: String) -> [HelpOutline] {
        let own = HelpOutline(name: path, text: joined([command.abstract, command.discussion]))
        let arguments = (command.arguments ?? []).filter(\.shouldDisplay).map {
            HelpOutline(name: "\(path) \($0.label)", text: joined([$0.abstract, $0.valuesAndDefault, $0.discussion]))
        }
        let subcommands = (command.subcommands ?? []).flatMap {
            outline(of: $0, path: "\(path) \(([$0.commandName] + ($0.aliases ?? [])).joined(separator: ", "))")
        }
        return [own] + arguments + subcommands
    }

    // MARK: The page (the single-page mdoc layout generate-manual writes)

    /// Reads the DESCRIPTION section: nested `.Bl` lists whose `.It Em name` items are
    /// subcommands and whose `.It Fl …`/`.It Ar …` items are arguments, each followed by its text.
    static func ofManualPage(at url: URL) throws -> [HelpOutline] {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let rootName = lines.first { $0.hasPrefix(".Nm ") }.map { String($0.dropFirst(4)) } ?? ""
        let abstract = lines.first { $0.hasPrefix(".Nd ") }.map { unquoted(String($0.dropFirst(4))) }
        var names = [rootName], texts = [[abstract ?? ""]]
        // One per open list: the command whose list it is (nil: a list of an option's values),
        // and the last item of it that was a command.
        var lists: [(command: String?, lastCommand: String?)] = []
        var current: Int? = 0
        var inDescription = false
        for line in lines {
            if line.hasPrefix(".Sh ") { inDescription = line == ".Sh DESCRIPTION"; continue }
            guard inDescription else { continue }
            let words = macroWords(line)
            switch words.first {
            case ".Bl":
                lists.append(lists.isEmpty ? (rootName, nil) : (lists[lists.count - 1].lastCommand, nil))
                current = nil
            case ".El":
                lists.removeLast()
                current = nil
            case ".It":
                guard let command = lists.last?.command else { current = nil; continue }
                let title = Array(words.dropFirst())
                let name: String
                if title.first == "Em" {
                    name = "\(command) \(title.dropFirst().joined(separator: " "))"
                    lists[lists.count - 1].lastCommand = name
                } else {
                    name = "\(command) \(argumentLabel(title))"
                    lists[lists.count - 1].lastCommand = nil
                }
                names.append(name)
                texts.append([])
                current = names.count - 1
            case let macro? where macro.hasPrefix("."):
                continue // .Pp: a paragraph break, white space here
            default:
                if let current { texts[current].append(unescaped(line)) }
            }
        }
        return zip(names, texts).map { HelpOutline(name: $0, text: joined($1)) }
    }

    /// `Fl h , -help` → `-h, --help`; `Fl -home Ar dir` → `--home <dir>`; `Ar files...` → `<files...>`.
    private static func argumentLabel(_ title: [String]) -> String {
        var flags: [String] = [], value: String?
        var inFlags = false
        for (index, word) in title.enumerated() {
            if word == "Fl" { inFlags = true } else if word == "Ar" {
                value = "<\(title.dropFirst(index + 1).joined(separator: " "))>"
                break
            } else if inFlags, word != "," { flags.append("-" + word) }
        }
        return ([flags.joined(separator: ", ")].filter { !$0.isEmpty } + [value].compactMap { $0 }).joined(separator: " ")
    }

    /// A macro line's words, a quoted argument being one word without its quotes.
    private static func macroWords(_ line: String) -> [String] {
        guard line.hasPrefix(".") else { return [] }
        var words: [String] = [], word = "", quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() } else if character == " ", !quoted {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else { word.append(character) }
        }
        if !word.isEmpty { words.append(word) }
        return words.map(unescaped)
    }

    private static func unquoted(_ text: String) -> String {
        unescaped(text.hasPrefix("\"") && text.hasSuffix("\"") && text.count > 1 ? String(text.dropFirst().dropLast()) : text)
    }

    /// mdoc's escapes as generate-manual writes them, back to plain text.
    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: #"\&"#, with: "")
            .replacingOccurrences(of: #"\(dq"#, with: "\"")
            .replacingOccurrences(of: #"\e"#, with: #"\"#)
    }

    private static func joined(_ parts: [String?]) -> String {
        parts.compactMap { $0 }.joined(separator: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
