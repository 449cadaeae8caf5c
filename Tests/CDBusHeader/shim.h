#ifndef VOICEJOURNAL_CDBUS_HEADER_SHIM_H
#define VOICEJOURNAL_CDBUS_HEADER_SHIM_H
/* libdbus-1's header, for the tests only: DBusHeaderTests holds the declarations the System
   module opens libdbus-1.so.3 with (LibDBus: function types, struct sizes, type codes) against
   it. The library's own targets cannot include it without linking -ldbus-1 (see LibDBus). */
#include <dbus/dbus.h>

/* Each function LibDBus binds, as the header declares it. */
typedef __typeof__(&dbus_threads_init_default) cdbus_threads_init_default;
typedef __typeof__(&dbus_error_init) cdbus_error_init;
typedef __typeof__(&dbus_error_free) cdbus_error_free;
typedef __typeof__(&dbus_connection_open_private) cdbus_connection_open_private;
typedef __typeof__(&dbus_connection_close) cdbus_connection_close;
typedef __typeof__(&dbus_connection_unref) cdbus_connection_unref;
typedef __typeof__(&dbus_connection_send_with_reply_and_block) cdbus_connection_send_with_reply_and_block;
typedef __typeof__(&dbus_message_new_method_call) cdbus_message_new_method_call;
typedef __typeof__(&dbus_message_unref) cdbus_message_unref;
typedef __typeof__(&dbus_message_iter_init_append) cdbus_message_iter_init_append;
typedef __typeof__(&dbus_message_iter_append_basic) cdbus_message_iter_append_basic;
typedef __typeof__(&dbus_message_iter_open_container) cdbus_message_iter_open_container;
typedef __typeof__(&dbus_message_iter_close_container) cdbus_message_iter_close_container;
typedef __typeof__(&dbus_message_iter_init) cdbus_message_iter_init;
typedef __typeof__(&dbus_message_iter_get_arg_type) cdbus_message_iter_get_arg_type;
typedef __typeof__(&dbus_message_iter_get_basic) cdbus_message_iter_get_basic;
typedef __typeof__(&dbus_message_iter_next) cdbus_message_iter_next;
typedef __typeof__(&dbus_message_iter_recurse) cdbus_message_iter_recurse;

#endif
