import Foundation

extension ConfigFile {
    /// Where each table header and key stands in the file's text, so a message about a key
    /// can name its line: the TOML library says where a syntax error is, but not where a
    /// valid document holds a given key.
    ///
    /// Only called on text the parser has accepted, so a light scan suffices: headers
    /// (`[defaults]`, `[[endpoint]]`), `key =` lines, and multi-line strings skipped over.
    struct KeyLines {
        /// A table as the scan names it: "" for the top level, "defaults", "endpoint#0",
        /// "chat.endpoint#1"...
        private var headers: [String: Int] = [:]
        private var keys: [String: Int] = [:]

        init(_ text: String) {
            var table = ""
            var listCounts: [String: Int] = [:]
            var openQuote: Substring?
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let number = index + 1
                let line = rawLine.drop { $0 == " " || $0 == "\t" }
                if let quote = openQuote {
                    // Inside a multi-line string: nothing here is a key.
                    if line.components(separatedBy: String(quote)).count % 2 == 0 { openQuote = nil }
                    continue
                }
                if line.hasPrefix("[[") {
                    let name = Self.headerName(line.dropFirst(2))
                    // Each table of a list is a table of its own: `endpoint#0`, `chat.endpoint#1`.
                    let path = Self.dottedPath(name).joined(separator: ".")
                    table = "\(path)#\(listCounts[path, default: 0])"
                    listCounts[path, default: 0] += 1
                    headers[table] = headers[table] ?? number
                } else if line.hasPrefix("[") {
                    let path = Self.dottedPath(String(line.dropFirst().prefix { $0 != "]" }))
                    table = path.joined(separator: ".")
                    // `[defaults.extra]` stands for the key "extra" of [defaults] too.
                    note(path, in: "", at: number)
                } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                    let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                    keys["\(table)\u{0}\(key)"] = keys["\(table)\u{0}\(key)"] ?? number
                    // `extra.x = 1` stands for the key "extra" of this table, and the table it makes.
                    let path = Self.dottedPath(key)
                    if path.count > 1 { note(path.dropLast(), in: table, at: number) }
                    let value = line[line.index(after: equals)...]
                    for quote in ["\"\"\"", "'''"] where value.components(separatedBy: quote).count == 2 {
                        openQuote = Substring(quote)
                    }
                }
            }
        }

        /// Records `line` for each table a dotted path names inside `table` (and for its key
        /// in the table above it), unless an earlier line named it.
        private mutating func note(_ path: some Collection<String>, in table: String, at line: Int) {
            var parent = table
            for part in path {
                keys["\(parent)\u{0}\(part)"] = keys["\(parent)\u{0}\(part)"] ?? line
                parent = parent.isEmpty ? part : "\(parent).\(part)"
                headers[parent] = headers[parent] ?? line
            }
        }

        /// The parts of a dotted key or table name (`defaults.extra`), unquoted; a quoted part
        /// may hold dots of its own.
        static func dottedPath(_ name: String) -> [String] {
            var parts: [String] = []
            var current = ""
            var quote: Character?
            for character in name {
                if let open = quote {
                    if character == open { quote = nil } else { current.append(character) }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "." {
                    parts.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            parts.append(current.trimmingCharacters(in: .whitespaces))
            return parts
        }

        /// The line of `key` in `table` ("" for the top level, "endpoint#N" for the Nth
        /// endpoint), else the line of the table's header.
        func line(of key: String, in table: String) -> Int? {
            keys["\(table)\u{0}\(key)"] ?? headers[table] ?? headers[key]
        }

        /// The line of a table's header.
        func line(ofTable table: String) -> Int? { headers[table] }

        private static func headerName(_ rest: Substring) -> String {
            let name = rest.prefix { $0 != "]" }
            return name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
    }
}
