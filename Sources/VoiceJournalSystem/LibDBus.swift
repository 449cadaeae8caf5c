/// libdbus-1, the reference D-Bus client library, opened on first use rather than linked:
/// only `nudge` speaks D-Bus, and linked, libdbus (with libsystemd and the compression and
/// crypto libraries it loads) would be loaded and bound at every start of every command.
/// `libdbus-1.so.3` is on every Debian system (the `dbus` package and most desktops need it);
/// its ABI has kept that soname since 2006.
///
/// Why libdbus and not the protocol written here or a helper program: the D-Bus wire format,
/// its authentication (EXTERNAL over the socket's credentials) and its address syntax
/// are libdbus's to get right, and it is what the bus daemon itself uses; `gdbus` or
/// `notify-send` would be one more program the user must install (libglib2.0-bin, libnotify-bin),
/// and their output one more thing to parse.
///
/// Why the functions are declared here, as `LibCrypto`'s are, and not imported from
/// `<dbus/dbus.h>`: libdbus-1-dev puts its headers under /usr/include/dbus-1.0 and an
/// architecture's folder, which SwiftPM reaches only through pkg-config, and a target naming
/// `pkgConfig: "dbus-1"` also links `-ldbus-1` into every program built on it (the very cost
/// opening it later avoids); a header search path outside the package is refused. So the
/// dozen functions used are written out with their C types (`dbus_bool_t` is a `uint32_t`,
/// handles are opaque pointers), the two structs the caller allocates (`DBusError`,
/// `DBusMessageIter`) get buffers larger than theirs, and the test target compiles
/// libdbus-1-dev's header (`DBusHeaderTests`) to check these sizes, offsets and constants
/// against it.
struct LibDBus: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once; libdbus is
    // thread-safe (dbus_threads_init_default is called once, on loading), and each
    // connection here is used by one thread.
    typealias Bool32 = UInt32
    let threadsInitDefault: @convention(c) () -> Bool32
    let errorInit: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let openPrivate: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let closeConnection: @convention(c) (OpaquePointer?) -> Void
    let unrefConnection: @convention(c) (OpaquePointer?) -> Void
    let sendWithReplyAndBlock: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> OpaquePointer?
    let newMethodCall: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                       UnsafePointer<CChar>?) -> OpaquePointer?
    let unrefMessage: @convention(c) (OpaquePointer?) -> Void
    let iterInitAppend: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    let iterAppendBasic: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?) -> Bool32
    let iterOpenContainer: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Bool32
    let iterCloseContainer: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool32
    let iterInit: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Bool32
    let iterArgType: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    let iterGetBasic: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    let iterNext: @convention(c) (UnsafeMutableRawPointer?) -> Bool32
    let iterRecurse: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    /// The soname opened.
    package static let soname = "libdbus-1.so.3"

    /// Bytes given to a `DBusError` (32 on a 64-bit system) and a `DBusMessageIter` (72): more
    /// than either needs, so a caller-allocated one never overruns.
    package static let errorBytes = 64
    package static let iteratorBytes = 128
    /// Where `DBusError`'s two public fields lie: `const char *name`, then `const char *message`.
    package static let errorNameOffset = 0
    package static let errorMessageOffset = MemoryLayout<UnsafeRawPointer>.stride

    /// D-Bus type codes (the wire protocol's, also libdbus's `DBUS_TYPE_…` values).
    package enum TypeCode {
        package static let invalid: Int32 = 0
        package static let string = Int32(UInt8(ascii: "s"))
        package static let uint32 = Int32(UInt8(ascii: "u"))
        package static let int32 = Int32(UInt8(ascii: "i"))
        package static let array = Int32(UInt8(ascii: "a"))
    }

    /// The library's functions, or why they could not be had (loaded once, by the first caller).
    static let loaded = Result { () throws(SharedLibraryError) in try load() }

    private static func load() throws(SharedLibraryError) -> LibDBus {
        let library = try SharedLibrary(soname)
        let dbus = LibDBus(
            threadsInitDefault: try library.function("dbus_threads_init_default", as: (@convention(c) () -> Bool32).self),
            errorInit: try library.function("dbus_error_init", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
            errorFree: try library.function("dbus_error_free", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
            openPrivate: try library.function("dbus_connection_open_private",
                                              as: (@convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> OpaquePointer?).self),
            closeConnection: try library.function("dbus_connection_close", as: (@convention(c) (OpaquePointer?) -> Void).self),
            unrefConnection: try library.function("dbus_connection_unref", as: (@convention(c) (OpaquePointer?) -> Void).self),
            sendWithReplyAndBlock: try library.function(
                "dbus_connection_send_with_reply_and_block",
                as: (@convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> OpaquePointer?).self),
            newMethodCall: try library.function(
                "dbus_message_new_method_call",
                as: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                     UnsafePointer<CChar>?) -> OpaquePointer?).self),
            unrefMessage: try library.function("dbus_message_unref", as: (@convention(c) (OpaquePointer?) -> Void).self),
            iterInitAppend: try library.function("dbus_message_iter_init_append",
                                                 as: (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void).self),
            iterAppendBasic: try library.function("dbus_message_iter_append_basic",
                                                  as: (@convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?) -> Bool32).self),
            iterOpenContainer: try library.function(
                "dbus_message_iter_open_container",
                as: (@convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Bool32).self),
            iterCloseContainer: try library.function(
                "dbus_message_iter_close_container",
                as: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Bool32).self),
            iterInit: try library.function("dbus_message_iter_init",
                                           as: (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Bool32).self),
            iterArgType: try library.function("dbus_message_iter_get_arg_type",
                                              as: (@convention(c) (UnsafeMutableRawPointer?) -> Int32).self),
            iterGetBasic: try library.function("dbus_message_iter_get_basic",
                                               as: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void).self),
            iterNext: try library.function("dbus_message_iter_next", as: (@convention(c) (UnsafeMutableRawPointer?) -> Bool32).self),
            iterRecurse: try library.function("dbus_message_iter_recurse",
                                              as: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void).self))
        // Makes libdbus's own locks real before any connection exists (a no-op since 1.7,
        // where it is the default; called for the older ones the soname also names).
        _ = dbus.threadsInitDefault()
        return dbus
    }
}

/// Why a D-Bus step failed: the error's D-Bus name ("org.freedesktop.DBus.Error.ServiceUnknown";
/// empty when libdbus gave none, e.g. out of memory) and its message, as libdbus or the peer
/// worded it.
struct BusFailure: Error, Sendable, Equatable {
    let name: String
    let message: String
}

extension LibDBus {
    /// Runs `body` with an initialised `DBusError`; when `body` leaves it set, that error is
    /// thrown (after it is freed), else `body`'s result is given back.
    func withError<Result>(_ body: (UnsafeMutableRawPointer) -> Result) throws(BusFailure) -> Result {
        let error = UnsafeMutableRawPointer.allocate(byteCount: Self.errorBytes, alignment: 16)
        error.initializeMemory(as: UInt8.self, repeating: 0, count: Self.errorBytes)
        defer { error.deallocate() }
        errorInit(error)
        let result = body(error)
        let name = error.load(fromByteOffset: Self.errorNameOffset, as: UnsafePointer<CChar>?.self)
        let message = error.load(fromByteOffset: Self.errorMessageOffset, as: UnsafePointer<CChar>?.self)
        guard let name else { return result }
        let failure = BusFailure(name: String(cString: name), message: message.map { String(cString: $0) } ?? "")
        errorFree(error)
        throw failure
    }

    /// Runs `body` with a fresh `DBusMessageIter`'s room.
    func withIterator<Result>(_ body: (UnsafeMutableRawPointer) throws(BusFailure) -> Result) throws(BusFailure) -> Result {
        let iterator = UnsafeMutableRawPointer.allocate(byteCount: Self.iteratorBytes, alignment: 16)
        iterator.initializeMemory(as: UInt8.self, repeating: 0, count: Self.iteratorBytes)
        defer { iterator.deallocate() }
        return try body(iterator)
    }
}
