import Foundation

extension Clock {
    /// A place typed by a user, in seconds: `291`, `291.5`, `4:51`, `04:51.5`, `1:02:03`.
    /// Minutes and seconds after a colon are below 60; nil for anything else (negative, empty,
    /// letters, more than three parts, past `longest`).
    package static func parse(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            // Whole numbers before the last part; the last may have a fraction. No signs, no exponents.
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  part.filter({ $0 == "." }).count <= 1, part.first != ".", part.last != ".",
                  let value = Double(part) else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total <= longest ? total : nil
    }
}
