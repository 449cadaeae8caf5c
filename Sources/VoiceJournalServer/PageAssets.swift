/// The answer page's style sheet and script, built into the binary: the page makes no
/// request to anywhere else, and the CSP (`script-src 'self'`) lets nothing inline run.
enum PageAssets {
    static let stylePath = "/assets/answer.css"
    static let scriptPath = "/assets/answer.js"

    static let style = #"""
    *, *::before, *::after { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 1.125rem;
           line-height: 1.5; color: #1a1a1a; background: #fbfaf7; }
    main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
    .asker { margin: 0 0 .25rem; color: #4a4a4a; font-size: 1.125rem; }
    .question { margin: 0 0 1.5rem; font-size: clamp(1.75rem, 7vw, 2.5rem); line-height: 1.2; overflow-wrap: anywhere; }
    .question-small { font-size: 1.25rem; font-weight: 600; overflow-wrap: anywhere; }
    .notice { padding: .75rem 1rem; border-left: .35rem solid #8a5a00; background: #fff4dc; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    [hidden] { display: none !important; }
    #status { min-height: 3em; margin: 0 0 1rem; }
    .level { height: 1.25rem; border-radius: .625rem; background: #e4e1d8; overflow: hidden; }
    .level-bar { height: 100%; width: 100%; background: #2e7d32; transform-origin: left center; transform: scaleX(0); transition: transform 60ms linear; }
    .time { margin: .5rem 0 1.25rem; font-size: 1.5rem; font-variant-numeric: tabular-nums; }
    .time .of { font-size: 1rem; color: #4a4a4a; }
    button { font: inherit; font-weight: 600; border-radius: .75rem; border: .15rem solid transparent; padding: .75rem 1.25rem; cursor: pointer; min-height: 3rem; }
    button:focus-visible { outline: .25rem solid #1a1a1a; outline-offset: .2rem; }
    .record { display: block; width: 100%; min-height: 6rem; font-size: 1.75rem; color: #fff; background: #b3261e; }
    .record.recording { background: #1a1a1a; }
    .primary { color: #fff; background: #0b5cad; }
    .secondary { color: #1a1a1a; background: #fff; border-color: #1a1a1a; }
    .actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 1rem; }
    .actions button { flex: 1 1 9rem; min-height: 4rem; font-size: 1.25rem; }
    audio { width: 100%; }
    progress { display: block; width: 100%; height: 1.5rem; margin-top: .5rem; }
    .thanks h2, .done h1 { font-size: 2rem; margin: 0 0 .5rem; }
    .thanks:focus { outline: none; }
    """#

    static let script = #"""
    "use strict";
    (function () {
      var root = document.getElementById("answer");
      if (!root) { return; }
      function $(id) { return document.getElementById(id); }
      var uploadURL = root.getAttribute("data-upload");
      var maxSeconds = Number(root.getAttribute("data-max-seconds")) || 180;
      var section = $("recorder"), status = $("status"), recordButton = $("record"), review = $("review"),
          playback = $("playback"), again = $("again"), send = $("send"), sending = $("sending"),
          progress = $("progress"), thanks = $("thanks"), elapsed = $("elapsed"), bar = $("level-bar");

      // Over plain HTTP (but on this machine itself) browsers hide the microphone altogether:
      // say that the link needs https, not that the browser is too old.
      if (window.isSecureContext === false) {
        $("insecure").hidden = false;
        return;
      }
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.MediaRecorder) {
        $("unsupported").hidden = false;
        return;
      }
      section.hidden = false;

      var stream = null, recorder = null, chunks = [], take = null, takeKey = null, takeURL = null;
      var startedAt = 0, ticker = null, audioContext = null, frame = 0, recordedSeconds = 0;

      function say(text) { status.textContent = text; }
      function clock(seconds) {
        var s = Math.floor(seconds);
        return Math.floor(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
      }
      function newKey() {
        var bytes = new Uint8Array(16);
        window.crypto.getRandomValues(bytes);
        return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
      }
      function recordingType() {
        var types = ["audio/webm;codecs=opus", "audio/mp4", "audio/ogg;codecs=opus", "audio/webm"];
        for (var i = 0; i < types.length; i++) {
          if (MediaRecorder.isTypeSupported && MediaRecorder.isTypeSupported(types[i])) { return types[i]; }
        }
        return "";
      }
      function extension(type) {
        if (type.indexOf("mp4") >= 0 || type.indexOf("aac") >= 0) { return "m4a"; }
        if (type.indexOf("ogg") >= 0) { return "ogg"; }
        return "webm";
      }

      // The live level: an AnalyserNode on the microphone, its RMS in dB drawn as a bar.
      function showLevel(source) {
        var Context = window.AudioContext || window.webkitAudioContext;
        if (!Context) { return; }
        audioContext = new Context();
        var analyser = audioContext.createAnalyser();
        analyser.fftSize = 1024;
        audioContext.createMediaStreamSource(source).connect(analyser);
        var samples = new Float32Array(analyser.fftSize);
        function draw() {
          analyser.getFloatTimeDomainData(samples);
          var sum = 0;
          for (var i = 0; i < samples.length; i++) { sum += samples[i] * samples[i]; }
          var db = 20 * Math.log10(Math.sqrt(sum / samples.length) + 1e-9);
          var level = Math.max(0, Math.min(1, (db + 60) / 60));
          bar.style.transform = "scaleX(" + level.toFixed(3) + ")";
          frame = window.requestAnimationFrame(draw);
        }
        draw();
      }
      function stopLevel() {
        if (frame) { window.cancelAnimationFrame(frame); frame = 0; }
        if (audioContext) { audioContext.close(); audioContext = null; }
        bar.style.transform = "scaleX(0)";
      }

      function tick() {
        var seconds = (performance.now() - startedAt) / 1000;
        elapsed.textContent = clock(Math.min(seconds, maxSeconds));
        if (seconds >= maxSeconds) {
          stop();
          say("That is the time limit. Listen to your answer, then send it or record it again.");
        }
      }

      function start() {
        say("Asking for the microphone…");
        navigator.mediaDevices.getUserMedia({ audio: true }).then(function (microphone) {
          stream = microphone;
          chunks = [];
          var type = recordingType();
          recorder = type ? new MediaRecorder(stream, { mimeType: type }) : new MediaRecorder(stream);
          recorder.ondataavailable = function (event) { if (event.data && event.data.size > 0) { chunks.push(event.data); } };
          recorder.onstop = finished;
          recorder.start(1000);
          startedAt = performance.now();
          ticker = window.setInterval(tick, 200);
          showLevel(stream);
          recordButton.textContent = "Stop";
          recordButton.classList.add("recording");
          say("Recording… Tap Stop when you have finished.");
        }).catch(function (error) {
          say(microphoneProblem(error && error.name));
        });
      }

      // What went wrong with the microphone, in words: a missing one is not a permission problem.
      function microphoneProblem(name) {
        if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") {
          return "No microphone was found. Please connect one, or open the link on a phone, and tap Record again.";
        }
        if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError") {
          return "The microphone is not allowed for this page. Please allow it (in the address bar or the browser's settings) and tap Record again.";
        }
        if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") {
          return "The microphone could not be started; another app may be using it. Please close that app and tap Record again.";
        }
        return "The microphone could not be used (" + name + "). Please check it and tap Record again.";
      }

      function stop() {
        if (!recorder || recorder.state === "inactive") { return; }
        recordedSeconds = (performance.now() - startedAt) / 1000;
        window.clearInterval(ticker);
        recorder.stop();
        stream.getTracks().forEach(function (track) { track.stop(); });
        stopLevel();
      }

      function finished() {
        take = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
        takeKey = newKey();
        if (takeURL) { URL.revokeObjectURL(takeURL); }
        takeURL = URL.createObjectURL(take);
        playback.src = takeURL;
        root.setAttribute("data-recorded-seconds", recordedSeconds.toFixed(3));
        recordButton.hidden = true;
        recordButton.textContent = "Record";
        recordButton.classList.remove("recording");
        review.hidden = false;
        say("Listen to your answer if you like, then send it or record it again.");
        send.focus();
      }

      function recordAgain() {
        playback.pause();
        take = null;
        review.hidden = true;
        recordButton.hidden = false;
        elapsed.textContent = "0:00";
        recordButton.focus();
        start();
      }

      function upload() {
        if (!take) { return; }
        var form = new FormData();
        form.append("audio", take, "answer." + extension(take.type));
        var request = new XMLHttpRequest();
        request.open("POST", uploadURL);
        // The same take sent again (a dropped connection) keeps its key: the server keeps it once.
        request.setRequestHeader("Idempotency-Key", takeKey);
        request.upload.onprogress = function (event) {
          if (event.lengthComputable) { progress.value = Math.round(100 * event.loaded / event.total); }
        };
        request.onload = function () {
          sending.hidden = true;
          if (request.status >= 200 && request.status < 300) { return done(); }
          var message = "The answer could not be sent.", reply = {};
          try { reply = JSON.parse(request.responseText) || {}; message = reply.message || message; } catch (ignored) {}
          // A withdrawn link takes no answer however often it is sent.
          review.hidden = reply.status === "withdrawn";
          say(message);
        };
        request.onerror = function () {
          sending.hidden = true;
          review.hidden = false;
          say("The connection dropped. Tap Send to try again; your answer will not arrive twice.");
        };
        // A send that stalls is given up, so the page never waits forever: a minute, plus
        // time for the take at 20 kB a second (a slow mobile connection).
        request.timeout = 60000 + Math.round(take.size / 20);
        request.ontimeout = function () {
          sending.hidden = true;
          review.hidden = false;
          say("Sending took too long; the connection may be slow. Tap Send to try again; your answer will not arrive twice.");
        };
        review.hidden = true;
        progress.value = 0;
        sending.hidden = false;
        say("Sending…");
        request.send(form);
      }

      function done() {
        playback.pause();
        section.hidden = true;
        thanks.hidden = false;
        thanks.focus();
      }

      recordButton.addEventListener("click", function () {
        if (recorder && recorder.state === "recording") { stop(); } else { start(); }
      });
      again.addEventListener("click", recordAgain);
      send.addEventListener("click", upload);
    })();
    """#
}
