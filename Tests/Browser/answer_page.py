#!/usr/bin/env python3
"""Answers an assignment through `voicejournal serve`'s page in a real browser: Debian's
headless Chromium, whose fake microphone plays a WAV file, driven by Selenium through
chromium-driver. Records, plays the take back, sends it, and reports what it saw as one JSON
document on stdout: the accessibility violations axe-core found, whether the page fits the
window's width, how long the browser recorded, whether playback ran, and whether the
thank-you page came (also after a reload). Saves a screenshot of the page while recording.

With --check it only opens the page and reports what it says: `insecure` opens the link by a
name that is not this machine's (mapped to 127.0.0.1 in the browser), as a phone on the LAN
would over plain HTTP; `no-microphone` starts the browser with no microphone and taps Record.

Run by Tests/ServerTests/BrowserTests.swift with the python of scripts/browser-setup.
"""
import argparse
import json
import os
import sys
import time

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as visible
from selenium.webdriver.support.ui import WebDriverWait

SERIOUS = ("serious", "critical")


def browser(audio, width, height, microphone=True, extra=()):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("VOICEJOURNAL_CHROMIUM", "/usr/bin/chromium")
    # %noloop: the speech once, then silence, as a person would speak it.
    fake = ("--use-fake-device-for-media-stream", "--use-file-for-fake-audio-capture=%s%%noloop" % audio) if microphone else ()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--use-fake-ui-for-media-stream") + fake + (
                 "--autoplay-policy=no-user-gesture-required",
                 "--window-size=%d,%d" % (width, height)) + tuple(extra):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The driver is named, so Selenium Manager never tries to download one.
    service = Service(os.environ.get("VOICEJOURNAL_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    # Headless windows are at least 500 px wide: the phone's width is set on the viewport.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return driver


def serious(axe):
    axe.inject()
    found = axe.run()["violations"]
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n.get("html", "")[:200] for n in v["nodes"]]} for v in found if v.get("impact") in SERIOUS]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--audio", required=True, help="WAV the fake microphone plays")
    parser.add_argument("--seconds", type=float, required=True, help="how long to record")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--check", choices=("insecure", "no-microphone"))
    args = parser.parse_args()
    if args.check:
        json.dump(check(args), sys.stdout)
        print()
        return

    report = {}
    driver = browser(args.audio, args.width, args.height)
    try:
        wait = WebDriverWait(driver, 30)
        driver.get(args.url)
        record = wait.until(visible.visibility_of_element_located((By.ID, "record")))
        report["question"] = driver.find_element(By.CSS_SELECTOR, "h1.question").text
        report["asker"] = driver.find_element(By.CSS_SELECTOR, ".asker").text
        report["innerWidth"] = driver.execute_script("return window.innerWidth")
        report["scrollWidth"] = driver.execute_script(
            "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        axe = Axe(driver)
        report["violations"] = serious(axe)

        record.click()
        wait.until(lambda d: d.find_element(By.ID, "record").text == "Stop")
        started = time.monotonic()
        # The level meter moves with the fake microphone's speech: its highest reading.
        levels = []
        for _ in range(8):
            time.sleep(0.25)
            transform = driver.execute_script("return document.getElementById('level-bar').style.transform")
            levels.append(float(transform[len("scaleX("):-1]) if transform.startswith("scaleX(") else 0.0)
        report["meterMax"] = max(levels)
        driver.save_screenshot(args.screenshot)
        report["scrollWidthRecording"] = driver.execute_script(
            "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        time.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
        driver.find_element(By.ID, "record").click()
        wait.until(visible.visibility_of_element_located((By.ID, "send")))
        report["recordedSeconds"] = float(driver.find_element(By.ID, "answer").get_attribute("data-recorded-seconds"))
        report["violationsReview"] = serious(axe)

        # Play the take back: it plays when its time moves on.
        report["played"] = driver.execute_async_script("""
            var done = arguments[arguments.length - 1], audio = document.getElementById('playback');
            var timer = setTimeout(function () { done(false); }, 15000);
            audio.addEventListener('timeupdate', function () {
              if (audio.currentTime > 0.5) { clearTimeout(timer); audio.pause(); done(true); }
            });
            audio.play().catch(function () { clearTimeout(timer); done(false); });
        """)

        driver.find_element(By.ID, "send").click()
        WebDriverWait(driver, 60).until(visible.visibility_of_element_located((By.ID, "thanks")))
        report["thanks"] = driver.find_element(By.ID, "thanks").text
        driver.refresh()
        report["afterReload"] = WebDriverWait(driver, 30).until(
            visible.visibility_of_element_located((By.TAG_NAME, "h1"))).text
        report["console"] = [entry["message"] for entry in driver.get_log("browser")
                             if entry.get("level") in ("SEVERE", "WARNING")]
    finally:
        driver.quit()
    json.dump(report, sys.stdout)
    print()


def check(args):
    """What the page says when it cannot record: opened over plain HTTP by a name that is not
    this machine's (not a secure context), or in a browser with no microphone."""
    report = {}
    insecure = args.check == "insecure"
    extra = ["--host-resolver-rules=MAP insecure.test 127.0.0.1"] if insecure else []
    driver = browser(args.audio, args.width, args.height, microphone=insecure, extra=extra)
    try:
        wait = WebDriverWait(driver, 30)
        driver.get(args.url)
        report["isSecureContext"] = driver.execute_script("return window.isSecureContext")
        if insecure:
            report["notice"] = wait.until(visible.visibility_of_element_located((By.ID, "insecure"))).text
            report["recorderHidden"] = not driver.find_element(By.ID, "recorder").is_displayed()
            report["unsupportedHidden"] = not driver.find_element(By.ID, "unsupported").is_displayed()
        else:
            wait.until(visible.visibility_of_element_located((By.ID, "record"))).click()
            wait.until(lambda d: not d.find_element(By.ID, "status").text.startswith(("Tap Record", "Asking")))
            report["status"] = driver.find_element(By.ID, "status").text
    finally:
        driver.quit()
    return report


if __name__ == "__main__":
    main()
