#!/usr/bin/python3
"""A freedesktop notification service for tests: owns org.freedesktop.Notifications on the
session bus DBUS_SESSION_BUS_ADDRESS names, answers Notify (susssasa{sv}i -> u) with ids from 1
and records each call, one JSON object a line, in the file given; prints "ready" once the name
is its own, and ends when its standard input closes.

    /usr/bin/python3 notification_service.py RECORD [--no-markup] [--refuse | --hang]

--no-markup: GetCapabilities leaves out body-markup (the body is then sent as it is).
--refuse: Notify answers an error (org.freedesktop.DBus.Error.Failed), as a broken service would.
--hang: Notify is recorded and never answered, as a wedged service's.

Debian's python3-dbus and python3-gi (GLib's main loop), hence /usr/bin/python3: a pyenv or
venv python lacks them.
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Refused(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.Failed"


class Service(dbus.service.Object):
    def __init__(self, bus, record, markup, refuse, hang):
        super().__init__(bus, PATH)
        self.record = record
        self.markup = markup
        self.refuse = refuse
        self.hang = hang
        self.next_id = 1

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "body-markup"] if self.markup else ["body"]

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("test-notifications", "voicejournal tests", "1", "1.2")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u", async_callbacks=("reply", "error"))
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout, reply, error):
        call = {"app_name": str(app_name), "replaces_id": int(replaces_id), "app_icon": str(app_icon),
                "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
                "hints": sorted(str(k) for k in hints), "expire_timeout": int(expire_timeout)}
        with open(self.record, "a", encoding="utf-8") as file:
            file.write(json.dumps(call) + "\n")
        if self.hang:
            return
        if self.refuse:
            error(Refused("this test service refuses every notification"))
            return
        given = self.next_id
        self.next_id += 1
        reply(dbus.UInt32(given))

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        pass


def main():
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    service = Service(bus, arguments[0], "--no-markup" not in arguments, "--refuse" in arguments, "--hang" in arguments)
    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, lambda *_: stdin_event(loop))
    print("ready", flush=True)
    loop.run()
    del name, service


def stdin_event(loop):
    if not sys.stdin.buffer.read1(4096):
        loop.quit()
        return False
    return True


if __name__ == "__main__":
    main()
