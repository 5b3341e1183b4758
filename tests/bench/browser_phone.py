"""A phone in Chromium that times its own taps: what tests/bench/bench_game_taps.py plays hands on.

The page measures, not the test: a script in every document (``MEASURE``) notes each tap (a
finger put down: a trusted pointerdown) and each key pressed, and for a tap on a link or a button
the time from the click to the answer being on screen:

- a swap: from the click to just after the first frame drawn once the page's script swapped
  the new ``<main>`` (or the Derby's ``#race``) in (``referee:swapped``, then a timer queued in
  the next animation frame, which runs once that frame is painted);
- a whole page: from the click to the new document's first contentful paint.

It also notes how long the finger stayed down (finger down to the click: swap.js asks for a
step that only reads as the finger goes down) and the part spent waiting for the answer (click
to the response's last byte: the
server and the network) and the answer's size on the wire. Everything is kept in sessionStorage,
so it survives page loads, and the steps modules of tests/e2e drive the page unchanged.

Two profiles: ``desktop`` (this machine as it is) and ``cheap phone`` (Chrome DevTools throttling
through CDP: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4 times slower).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from playwright.sync_api import Browser, Page, Playwright

from tests.e2e.conftest import CHROMIUM, LAUNCH_ARGS, PHONE

MEASURE = """
(() => {
  if (window.__benchClock) return;
  window.__benchClock = true;
  const S = sessionStorage;
  const now = () => performance.timeOrigin + performance.now();
  const read = (k) => JSON.parse(S.getItem("bench:" + k) || "null");
  const write = (k, v) => S.setItem("bench:" + k, JSON.stringify(v));
  const bump = (k) => write(k, (read(k) || 0) + 1);

  function label(control) {
    if (control.value) return control.value;
    const href = control.getAttribute("href");
    if (!href) return control.type || control.tagName.toLowerCase();
    const url = new URL(href, location.href);
    const tail = url.pathname.replace(/^\\/t\\/[^/]+/, "") || "/";
    const act = url.searchParams.get("action") || url.searchParams.get("ultima") || "";
    return act ? tail + " " + act : tail;
  }

  // The answer is in (synchronously, so a quick next tap cannot be taken for this one); the
  // time is taken at the first frame after it.
  function shown(kind, waited) {
    const tap = read("pending");
    if (!tap) return;
    S.removeItem("bench:pending");
    const log = read("log") || [];
    const i = log.length;
    log.push(null);
    write("log", log);
    requestAnimationFrame(() => setTimeout(() => {
      const filled = read("log");
      const paint = kind === "load" && performance.getEntriesByName("first-contentful-paint")[0];
      const at = paint ? performance.timeOrigin + paint.startTime : now();
      filled[i] = Object.assign({ label: tap.label, kind: kind, ms: at - tap.at, held: tap.down ? tap.at - tap.down : null }, waited(tap));
      write("log", filled);
    }, 0));
  }

  // The answer may have been asked for as the finger went down (swap.js asks for a step that
  // only reads then): its request is looked for from that moment on.
  function lastRequest(tap) {
    const since = (tap.down || tap.at) - performance.timeOrigin;
    const clicked = tap.at - performance.timeOrigin;
    const mine = performance.getEntriesByType("resource").filter(
      (e) => (e.initiatorType === "xmlhttprequest" || e.initiatorType === "fetch") && e.startTime >= since - 1);
    const e = mine[mine.length - 1];
    return e ? { wait: e.responseEnd - clicked, kb: e.encodedBodySize / 1024 } : { wait: null, kb: null };
  }

  function document_(tap) {
    const nav = performance.getEntriesByType("navigation")[0];
    return nav ? { wait: performance.timeOrigin + nav.responseEnd - tap.at, kb: nav.encodedBodySize / 1024 }
               : { wait: null, kb: null };
  }

  // A tap is a finger put down (a label's tap also clicks its input: one tap, two clicks).
  let down = 0;
  document.addEventListener("pointerdown", (event) => { if (event.isTrusted) { bump("taps"); down = now(); } }, true);
  document.addEventListener("click", (event) => {
    if (!event.isTrusted) return;
    const control = event.target.closest && event.target.closest("a[href], button, input[type=submit]");
    if (control && !control.hasAttribute("data-step")) write("pending", { label: label(control), at: now(), down: down });
  }, true);
  document.addEventListener("keydown", (event) => { if (event.isTrusted) bump("keys"); }, true);
  document.addEventListener("referee:swapped", (event) => {
    const target = event.detail && event.detail.target;
    if (target && (target.id === "main" || target.id === "race")) shown("swap", lastRequest);
  });
  if (read("pending")) {
    document.addEventListener("DOMContentLoaded", () => shown("load", document_));
  }
})();
"""

#: What the bench reads back: every ``bench:`` key of the tab's sessionStorage.
READ = """(() => {
  const out = {};
  for (const k of Object.keys(sessionStorage)) if (k.startsWith("bench:")) out[k.slice(6)] = sessionStorage[k];
  return out;
})()"""

CLEAR = "Object.keys(sessionStorage).filter(k => k.startsWith('bench:')).forEach(k => sessionStorage.removeItem(k))"


@dataclass(frozen=True)
class Profile:
    name: str
    latency_ms: float = 0.0  # round trip
    down_kbps: float = 0.0  # 0: not throttled
    up_kbps: float = 0.0
    cpu_slowdown: float = 1.0

    @property
    def throttled(self) -> bool:
        return self.latency_ms > 0 or self.down_kbps > 0 or self.cpu_slowdown > 1


DESKTOP = Profile("desktop")
CHEAP_PHONE = Profile("cheap phone", latency_ms=150, down_kbps=1600, up_kbps=750, cpu_slowdown=4)
PROFILES = (DESKTOP, CHEAP_PHONE)


@dataclass
class Step:
    """One tap that asked the server for something."""

    label: str
    kind: str  # "swap" (swap.js swapped part of the page) or "load" (a whole page)
    ms: float  # click to the answer on screen
    wait: float | None  # click to the answer's last byte: server and network
    kb: float | None  # the answer's size on the wire
    held: float | None = None  # finger down to the click

    @property
    def client(self) -> float | None:
        """What the phone spent after the answer was in: parsing, styles, scripts, swap.js's swap."""
        return None if self.wait is None else self.ms - self.wait


@dataclass
class Hand:
    game: str
    taps: int = 0
    keys: int = 0
    steps: list[Step] = field(default_factory=list)

    @property
    def loads(self) -> int:
        return sum(1 for s in self.steps if s.kind == "load")

    @property
    def swaps(self) -> int:
        return sum(1 for s in self.steps if s.kind == "swap")

    @property
    def total_ms(self) -> float:
        return sum(s.ms for s in self.steps)


class Phone:
    """One browser tab with a profile; :meth:`hand` counts and times what happens inside it."""

    def __init__(self, browser: Browser, profile: Profile) -> None:
        self.profile = profile
        self.context = browser.new_context(**PHONE)
        self.context.add_init_script(MEASURE)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.cdp = self.context.new_cdp_session(self.page)
        self.played: list[Hand] = []  # every hand counted to its end, in order

    def throttle(self, on: bool) -> None:
        """The profile's throttling (DevTools' own, through CDP) on or off: a table is set up at
        full speed, its hand is played on the profile."""
        p = self.profile
        if not p.throttled:
            return
        self.cdp.send("Network.enable")
        self.cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": p.latency_ms if on else 0,
                "downloadThroughput": p.down_kbps * 1000 / 8 if on else -1,
                "uploadThroughput": p.up_kbps * 1000 / 8 if on else -1,
            },
        )
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": p.cpu_slowdown if on else 1})

    @contextmanager
    def hand(self, game: str) -> Iterator[Hand]:
        """Count and time the taps of the block (played from the table page)."""
        result = Hand(game)
        self.page.evaluate(CLEAR)
        self.throttle(True)
        try:
            yield result
            stored = self._settled()
        finally:
            self.throttle(False)
        result.taps = int(json.loads(stored.get("taps", "0")))
        result.keys = int(json.loads(stored.get("keys", "0")))
        for entry in json.loads(stored.get("log", "[]")):
            result.steps.append(
                Step(entry["label"], entry["kind"], entry["ms"], entry.get("wait"), entry.get("kb"), entry.get("held"))
            )
        self.played.append(result)

    def _settled(self, timeout: float = 30.0) -> dict[str, str]:
        """What the tab noted, once the last answer's frame has been timed."""
        deadline = time.monotonic() + timeout
        while True:
            stored: dict[str, str] = self.page.evaluate(READ)
            if None not in json.loads(stored.get("log", "[]")) or time.monotonic() > deadline:
                return stored
            self.page.wait_for_timeout(50)

    def close(self) -> None:
        self.context.close()


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
