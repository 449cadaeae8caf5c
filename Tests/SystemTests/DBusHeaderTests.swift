import Testing
import VoiceJournalCDBusHeader
@testable import VoiceJournalSystem

/// The System module opens libdbus-1.so.3 with declarations of its own (`LibDBus`: the
/// library cannot be linked, nor its header reached without linking it). These hold them
/// against libdbus-1-dev's header: each function's C type, the room given to the structs the
/// caller allocates, where `DBusError`'s fields lie, and the type codes.
@Suite struct DBusHeaderTests {
    /// A function type as its description reads with the two caller-allocated structs, which
    /// `LibDBus` passes as raw memory of their size, written as raw pointers.
    static func shape(_ type: Any.Type) -> String {
        String(describing: type)
            .replacingOccurrences(of: "UnsafeMutablePointer<DBusError>", with: "UnsafeMutableRawPointer")
            .replacingOccurrences(of: "UnsafeMutablePointer<DBusMessageIter>", with: "UnsafeMutableRawPointer")
    }

    @Test func everyFunctionBoundHasTheTypeTheHeaderDeclares() throws {
        let dbus = try LibDBus.loaded.get()
        let declared: [String: String] = [
            "threadsInitDefault": Self.shape(cdbus_threads_init_default.self),
            "errorInit": Self.shape(cdbus_error_init.self),
            "errorFree": Self.shape(cdbus_error_free.self),
            "openPrivate": Self.shape(cdbus_connection_open_private.self),
            "closeConnection": Self.shape(cdbus_connection_close.self),
            "unrefConnection": Self.shape(cdbus_connection_unref.self),
            "sendWithReplyAndBlock": Self.shape(cdbus_connection_send_with_reply_and_block.self),
            "newMethodCall": Self.shape(cdbus_message_new_method_call.self),
            "unrefMessage": Self.shape(cdbus_message_unref.self),
            "iterInitAppend": Self.shape(cdbus_message_iter_init_append.self),
            "iterAppendBasic": Self.shape(cdbus_message_iter_append_basic.self),
            "iterOpenContainer": Self.shape(cdbus_message_iter_open_container.self),
            "iterCloseContainer": Self.shape(cdbus_message_iter_close_container.self),
            "iterInit": Self.shape(cdbus_message_iter_init.self),
            "iterArgType": Self.shape(cdbus_message_iter_get_arg_type.self),
            "iterGetBasic": Self.shape(cdbus_message_iter_get_basic.self),
            "iterNext": Self.shape(cdbus_message_iter_next.self),
            "iterRecurse": Self.shape(cdbus_message_iter_recurse.self),
        ]
        let bound = Mirror(reflecting: dbus).children.compactMap { child in child.label.map { ($0, child.value) } }
        #expect(Set(bound.map(\.0)) == Set(declared.keys), "every function LibDBus binds is checked")
        for (name, function) in bound {
            #expect(Self.shape(type(of: function)) == declared[name], "\(name)")
        }
    }

    @Test func theStructsFitTheirRoomAndTheErrorsFieldsLieWhereRead() {
        #expect(MemoryLayout<DBusError>.size <= LibDBus.errorBytes && MemoryLayout<DBusError>.alignment <= 16)
        #expect(MemoryLayout<DBusMessageIter>.size <= LibDBus.iteratorBytes && MemoryLayout<DBusMessageIter>.alignment <= 16)
        #expect(MemoryLayout<DBusError>.offset(of: \DBusError.name) == LibDBus.errorNameOffset)
        #expect(MemoryLayout<DBusError>.offset(of: \DBusError.message) == LibDBus.errorMessageOffset)
    }

    @Test func theTypeCodesAreTheHeaders() {
        func code(_ text: String) -> Int32 { Int32(text.utf8.first ?? 0) }
        #expect(LibDBus.TypeCode.string == code(DBUS_TYPE_STRING_AS_STRING))
        #expect(LibDBus.TypeCode.uint32 == code(DBUS_TYPE_UINT32_AS_STRING))
        #expect(LibDBus.TypeCode.int32 == code(DBUS_TYPE_INT32_AS_STRING))
        #expect(LibDBus.TypeCode.array == code(DBUS_TYPE_ARRAY_AS_STRING))
        #expect(LibDBus.TypeCode.invalid == 0)
    }
}
