/// A private connection to a message bus: libdbus's `DBusConnection`, closed and released when
/// this is dropped. For one short exchange on one thread (it blocks while it waits).
///
/// Private (`dbus_connection_open_private`), not libdbus's shared one (`dbus_bus_get`): a
/// shared connection's disconnection ends the process (libdbus calls `_exit`), it is never
/// closed, and `dbus_bus_get` starts a bus of its own (X11 autolaunch) when it finds none,
/// where "no bus" is the answer wanted here.
final class BusConnection {
    private let dbus: LibDBus
    private let handle: OpaquePointer

    private init(dbus: LibDBus, handle: OpaquePointer) {
        self.dbus = dbus
        self.handle = handle
    }

    deinit {
        // A private connection is closed before its last reference goes (libdbus's rule).
        dbus.closeConnection(handle)
        dbus.unrefConnection(handle)
    }

    /// Connects to the bus at `address` (D-Bus address syntax, e.g. `unix:path=/run/user/1000/bus`)
    /// and says Hello, the call a bus needs first, before `deadline`.
    ///
    /// Hello is sent as any call is, with what is left of the deadline, rather than through
    /// `dbus_bus_register`, which waits libdbus's default 25 s for the bus (authentication
    /// happens in that wait too).
    static func connect(to address: String, dbus: LibDBus, deadline: ContinuousClock.Instant) throws(BusFailure) -> BusConnection {
        let opened = try dbus.withError { error in address.withCString { dbus.openPrivate($0, error) } }
        guard let opened else { throw BusFailure(name: "", message: "libdbus gave no connection") }
        let connection = BusConnection(dbus: dbus, handle: opened)
        let hello = try BusMessage(dbus: dbus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                   interface: "org.freedesktop.DBus", method: "Hello")
        _ = try connection.call(hello, deadline: deadline)
        return connection
    }

    /// Sends `message` (a method call) and waits for its reply until `deadline`: the reply, or
    /// the error the peer (or the bus, or libdbus's timeout, `…Error.NoReply`) answered.
    func call(_ message: BusMessage, deadline: ContinuousClock.Instant) throws(BusFailure) -> BusMessage {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw BusFailure(name: BusConnection.noReply, message: "no time left before the deadline") }
        let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        let reply = try dbus.withError { error in dbus.sendWithReplyAndBlock(handle, message.handle, max(1, milliseconds), error) }
        guard let reply else { throw BusFailure(name: "", message: "libdbus gave no reply and no error") }
        return BusMessage(dbus: dbus, taking: reply)
    }

    /// libdbus's error for a call not answered in time.
    static let noReply = "org.freedesktop.DBus.Error.NoReply"
}

/// A D-Bus message: libdbus's `DBusMessage`, released when this is dropped.
final class BusMessage {
    private let dbus: LibDBus
    let handle: OpaquePointer

    /// A reply libdbus handed over (its reference is now this one's).
    init(dbus: LibDBus, taking handle: OpaquePointer) {
        self.dbus = dbus
        self.handle = handle
    }

    /// A method call to `method` of `interface` on the object `path` of `destination` (a bus
    /// name). The names are the caller's constants: libdbus ends the process on a malformed one.
    init(dbus: LibDBus, destination: String, path: String, interface: String, method: String) throws(BusFailure) {
        let made = destination.withCString { destination in
            path.withCString { path in
                interface.withCString { interface in method.withCString { dbus.newMethodCall(destination, path, interface, $0) } }
            }
        }
        guard let made else { throw BusFailure(name: "org.freedesktop.DBus.Error.NoMemory", message: "no memory for a message") }
        self.dbus = dbus
        handle = made
    }

    deinit { dbus.unrefMessage(handle) }

    /// One argument of a call, as the D-Bus type it is sent as.
    enum Argument {
        /// `s`: valid UTF-8 without NUL (a Swift string is UTF-8; a NUL ends it here).
        case string(String)
        case uint32(UInt32)
        case int32(Int32)
        /// `a…`: an empty array whose elements would be of this signature (`s`, `{sv}`).
        case emptyArray(of: String)
    }

    /// Appends `arguments` in order.
    func append(_ arguments: [Argument]) throws(BusFailure) {
        try dbus.withIterator { (iterator) throws(BusFailure) in
            dbus.iterInitAppend(handle, iterator)
            for argument in arguments {
                guard append(argument, to: iterator) != 0 else {
                    throw BusFailure(name: "org.freedesktop.DBus.Error.NoMemory", message: "no memory for a message's arguments")
                }
            }
        }
    }

    private func append(_ argument: Argument, to iterator: UnsafeMutableRawPointer) -> LibDBus.Bool32 {
        switch argument {
        case .string(let text):
            return text.withCString { characters in
                var pointer: UnsafePointer<CChar>? = characters
                return withUnsafePointer(to: &pointer) { dbus.iterAppendBasic(iterator, LibDBus.TypeCode.string, $0) }
            }
        case .uint32(var number):
            return withUnsafePointer(to: &number) { dbus.iterAppendBasic(iterator, LibDBus.TypeCode.uint32, $0) }
        case .int32(var number):
            return withUnsafePointer(to: &number) { dbus.iterAppendBasic(iterator, LibDBus.TypeCode.int32, $0) }
        case .emptyArray(let signature):
            return (try? dbus.withIterator { (inner) throws(BusFailure) -> LibDBus.Bool32 in
                let opened = signature.withCString { dbus.iterOpenContainer(iterator, LibDBus.TypeCode.array, $0, inner) }
                guard opened != 0 else { return 0 }
                return dbus.iterCloseContainer(iterator, inner)
            }) ?? 0
        }
    }

    /// The message's first argument when it is a `u`; nil otherwise.
    func firstUInt32() -> UInt32? {
        try? dbus.withIterator { (iterator) throws(BusFailure) -> UInt32? in
            guard dbus.iterInit(handle, iterator) != 0, dbus.iterArgType(iterator) == LibDBus.TypeCode.uint32 else { return nil }
            var number: UInt32 = 0
            withUnsafeMutablePointer(to: &number) { dbus.iterGetBasic(iterator, $0) }
            return number
        } ?? nil
    }

    /// The message's first argument when it is an `as`, at most `limit` of its strings; nil otherwise.
    func firstStrings(limit: Int = 100) -> [String]? {
        try? dbus.withIterator { (iterator) throws(BusFailure) -> [String]? in
            guard dbus.iterInit(handle, iterator) != 0, dbus.iterArgType(iterator) == LibDBus.TypeCode.array else { return nil }
            return try dbus.withIterator { (element) throws(BusFailure) -> [String]? in
                dbus.iterRecurse(iterator, element)
                var strings: [String] = []
                while strings.count < limit, dbus.iterArgType(element) == LibDBus.TypeCode.string {
                    var characters: UnsafePointer<CChar>?
                    withUnsafeMutablePointer(to: &characters) { dbus.iterGetBasic(element, $0) }
                    strings.append(characters.map { String(cString: $0) } ?? "")
                    guard dbus.iterNext(element) != 0 else { break }
                }
                return strings
            }
        } ?? nil
    }
}
