import Foundation

/// A desktop notification: a short summary and a body, as the user's notification service
/// (the freedesktop Notifications service on the session bus) shows them.
///
/// The text is data, never markup or terminal control: control and format characters (and
/// noncharacters, which libdbus refuses) are taken out, runs of white space become one space,
/// and each part is cut to a notification's length. Where the service reads markup in a body
/// (it says `body-markup`), `&`, `<` and `>` are sent escaped, so they show as themselves.
package struct DesktopNotification: Sendable, Equatable {
    package let summary: String
    package let body: String

    /// The application name the service shows and groups by.
    package static let appName = "voicejournal"
    /// The most characters of each part kept: a notification is a line and a few more.
    package static let summaryLimit = 80
    package static let bodyLimit = 300

    package init(summary: String, body: String) {
        self.summary = Self.cleaned(summary, limit: Self.summaryLimit)
        self.body = Self.cleaned(body, limit: Self.bodyLimit)
    }

    /// `text` as a notification shows it: no control, format or noncharacter scalar (a zero-width
    /// joiner inside an emoji is kept), white space of any kind as one space, at most `limit`
    /// characters (the last an ellipsis when it was cut).
    package static func cleaned(_ text: String, limit: Int) -> String {
        var kept = String.UnicodeScalarView()
        var space = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .lineSeparator || category == .paragraphSeparator {
                space = !kept.isEmpty
                continue
            }
            guard category != .control, category != .format || scalar.value == 0x200D,
                  !scalar.properties.isNoncharacterCodePoint else { continue }
            if space { kept.append(" ") }
            space = false
            kept.append(scalar)
        }
        let whole = String(kept)
        guard whole.count > limit else { return whole }
        return String(whole.prefix(max(0, limit - 1))).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// `text` with the three characters a notification body's markup gives meaning escaped.
    static func escapedForMarkup(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// What became of a notification.
package enum NotificationOutcome: Sendable, Equatable {
    /// The service took it and gave it this id.
    case shown(UInt32)
    /// No session bus: none is named (`DBUS_SESSION_BUS_ADDRESS`, `$XDG_RUNTIME_DIR/bus`), it
    /// cannot be reached, or libdbus cannot be loaded. Says why.
    case noBus(String)
    /// The bus is there, but nothing on it provides `org.freedesktop.Notifications` (no owner,
    /// and none it could start). Says why.
    case noService(String)
    /// The service is there and did not show it (it refused, or did not answer in time).
    case failed(String)
}

/// The freedesktop Notifications service (`org.freedesktop.Notifications` on the session bus),
/// reached through libdbus (`LibDBus`).
package enum DesktopNotifications {
    /// How long the whole exchange may take (connecting, the bus's Hello, the service's
    /// capabilities, the notification itself).
    package static let defaultTimeout: Duration = .seconds(5)

    /// Shows `notification` through the session bus `environment` names, on one of the
    /// blocking threads (every call waits on a socket), within `timeout`.
    package static func show(_ notification: DesktopNotification, environment: [String: String],
                             timeout: Duration = defaultTimeout) async -> NotificationOutcome {
        let outcome = try? await onThread { showWaiting(notification, environment: environment, timeout: timeout) }
        return outcome ?? .failed("the notification was not sent")
    }

    /// `show`, waiting on the calling thread: never call it from the cooperative pool.
    package static func showWaiting(_ notification: DesktopNotification, environment: [String: String],
                                    timeout: Duration = defaultTimeout) -> NotificationOutcome {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        guard let address = sessionBusAddress(environment: environment) else {
            return .noBus("no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
        }
        let dbus: LibDBus
        do {
            dbus = try LibDBus.loaded.get()
        } catch {
            return .noBus("\(LibDBus.soname) is not usable (\(error.step))")
        }
        let connection: BusConnection
        do {
            connection = try BusConnection.connect(to: address, dbus: dbus, deadline: deadline)
        } catch {
            return .noBus("cannot connect to the session bus at \(address): \(error.message)")
        }
        do {
            // The body's markup, where the service reads it, is escaped; a service without
            // GetCapabilities (it is required, but) gets plain text.
            let capabilities: [String]
            do {
                capabilities = try serviceCall("GetCapabilities", [], on: connection, dbus: dbus, deadline: deadline).firstStrings() ?? []
            } catch where error.name == "org.freedesktop.DBus.Error.UnknownMethod" {
                capabilities = []
            }
            let body = capabilities.contains("body-markup") ? DesktopNotification.escapedForMarkup(notification.body) : notification.body
            let reply = try serviceCall("Notify", [
                .string(DesktopNotification.appName), .uint32(0), .string(""), .string(notification.summary), .string(body),
                .emptyArray(of: "s"), .emptyArray(of: "{sv}"), .int32(-1),
            ], on: connection, dbus: dbus, deadline: deadline)
            guard let id = reply.firstUInt32() else { return .failed("the notification service answered Notify without an id") }
            return .shown(id)
        } catch {
            if isMissingService(error.name) {
                return .noService("nothing on the session bus provides \(service) (\(error.message))")
            }
            if error.name == BusConnection.noReply {
                return .failed("the notification service did not answer within \(timeout.components.seconds) s")
            }
            return .failed("the notification service refused it: \(error.name): \(error.message)")
        }
    }

    /// The bus name, object and interface of the freedesktop Notifications service.
    package static let service = "org.freedesktop.Notifications"
    private static let objectPath = "/org/freedesktop/Notifications"

    private static func serviceCall(_ method: String, _ arguments: [BusMessage.Argument], on connection: BusConnection,
                                    dbus: LibDBus, deadline: ContinuousClock.Instant) throws(BusFailure) -> BusMessage {
        let message = try BusMessage(dbus: dbus, destination: service, path: objectPath, interface: service, method: method)
        try message.append(arguments)
        return try connection.call(message, deadline: deadline)
    }

    /// Whether the bus answered that no one provides the name: no owner and nothing to start
    /// (`ServiceUnknown`, `NameHasNoOwner`), or a service it tried to start failed (`Spawn.*`,
    /// e.g. a notification daemon with no display to show on).
    static func isMissingService(_ name: String) -> Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
            || name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else the per-user bus of
    /// systemd's user session, `$XDG_RUNTIME_DIR/bus`, when that is a socket (as libdbus and
    /// sd-bus look for it too); nil when neither names one.
    package static func sessionBusAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let socket = runtime.hasSuffix("/") ? runtime + "bus" : runtime + "/bus"
        var status = stat()
        guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + escapedAddressValue(socket)
    }

    /// A value as D-Bus addresses write it: bytes outside `[-0-9A-Za-z_/.\*]` as `%XX`.
    static func escapedAddressValue(_ value: String) -> String {
        var escaped = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                escaped.append(Character(Unicode.Scalar(byte)))
            default:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
