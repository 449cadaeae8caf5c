import Foundation

/// What a chat request cost, as the pages show it beside its tokens.
enum CostText {
    /// `free` (a price of 0, as the local server's), `$0.0012`, or `cost unknown` when the
    /// endpoint's prices were not given.
    static func shown(_ dollars: Double?) -> String {
        dollars.map { $0 == 0 ? "free" : String(format: "$%.4f", $0) } ?? "cost unknown"
    }
}
