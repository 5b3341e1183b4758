"""One hand of each game tapped in Chromium like a player, on a desktop and on a cheap phone.

`.venv/bin/python -m tests.bench.bench_game_taps` (`make bench` runs it; `make bench-taps` alone).
The server is gunicorn with the production settings (referee.gunicorn_conf), the browser
/usr/bin/chromium at 390x844, pt-BR. Each game's path is in tests/bench/game_paths.py; the timing
is the page's own (tests/bench/browser_phone.py): from the tap to the answer on screen.

Prints three tables:

1. per game / hand: taps, numbers typed (keys pressed), and how many taps loaded a whole page
   and how many swapped part of it (swap.js);
2. per step, both profiles: milliseconds from the tap to the answer on screen, split into the
   wait (server and network: to the answer's last byte) and the phone's own work after it
   (parse, styles, scripts, the swap); the answer's size; each hand's total. Steps above
   TARGET_MS on the cheap phone are marked;
3. per profile, the medians over all hands' swaps and page loads.

A warm-up hand on each profile fills the browser's cache (swap.js, app.js, app.css) as a phone in
use has it, and the server's templates. Every path is played ROUNDS times on each profile and a
step's figures are its medians over the rounds, with the slowest round beside them: on a shared
machine one tap now and then stalls for tens of milliseconds (the throttled phone's CPU is a
quarter of one core), and a single round cannot tell that stall from a slow step. Prints; never
asserts. The machine line says how busy the machine was.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from ._common import machine, quick, referee_server, sized
from .browser_phone import PROFILES, Hand, Phone, Profile, Step, launch
from .game_paths import PATHS, At, jubileu_solo_sete

TARGET_MS = 250.0
ROUNDS = sized(3, 1)


def play(phone: Phone, base: str) -> dict[str, list[Hand] | str]:
    """Every path ROUNDS times on this phone: its counted hands, or why it failed."""
    hands: dict[str, list[Hand] | str] = {}
    if not quick():  # quick mode: one game, one hand, the warm-up's work included
        jubileu_solo_sete(At(phone.page, base, lambda: phone.hand("warm-up")))
    for _ in range(ROUNDS):
        for name, path in sized(PATHS, PATHS[:1]):
            played = hands.setdefault(name, [])
            if isinstance(played, str):
                continue
            try:
                path(At(phone.page, base, lambda name=name: phone.hand(name)))  # type: ignore[misc]
                played.append(phone.played[-1])
            except Exception as exc:  # noqa: BLE001 - one game's path broken, the others go on
                hands[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:150]}"
                traceback.print_exc(limit=2)
    return hands


@dataclass
class Typical:
    """A path's hand as the rounds played it: each step's medians, and its slowest round."""

    hand: Hand
    worst: list[float]


def typical(rounds: list[Hand]) -> Typical:
    first = rounds[0]
    hand = Hand(first.game, first.taps, first.keys)
    worst = []
    for i, step in enumerate(first.steps):
        same = [r.steps[i] for r in rounds if len(r.steps) > i and r.steps[i].label == step.label]
        waits = [s.wait for s in same if s.wait is not None]
        sizes = [s.kb for s in same if s.kb is not None]
        held = [s.held for s in same if s.held is not None]
        hand.steps.append(
            Step(
                step.label,
                step.kind,
                statistics.median(s.ms for s in same),
                statistics.median(waits) if waits else None,
                statistics.median(sizes) if sizes else None,
                statistics.median(held) if held else None,
            )
        )
        worst.append(max(s.ms for s in same))
    return Typical(hand, worst)


def run() -> dict[Profile, dict[str, Typical | str]]:
    results: dict[Profile, dict[str, Typical | str]] = {}
    workdir = Path(tempfile.mkdtemp(prefix="bench-game-taps-"))
    expect.set_options(timeout=30_000)
    try:
        with referee_server(workdir, worker_class=None) as server, sync_playwright() as pw:
            browser = launch(pw)
            try:
                for profile in PROFILES:
                    phone = Phone(browser, profile)
                    try:
                        played = play(phone, server.base)
                        results[profile] = {
                            name: rounds if isinstance(rounds, str) else typical(rounds)
                            for name, rounds in played.items()
                        }
                    finally:
                        phone.close()
            finally:
                browser.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return results


# --------------------------------------------------------------------------- printing


def print_counts(results: dict[Profile, dict[str, Typical | str]]) -> None:
    first = results[PROFILES[0]]
    print("  taps per hand, from the table page to the stored hand", flush=True)
    print(f"  {'game / hand':<32}{'taps':>6}{'typed':>7}{'page loads':>12}{'swaps':>7}", flush=True)
    for name, played in first.items():
        if isinstance(played, str):
            print(f"  {name:<32} FAILED {played}", flush=True)
            continue
        hand = played.hand
        print(f"  {name:<32}{hand.taps:>6}{hand.keys:>7}{hand.loads:>12}{hand.swaps:>7}", flush=True)


def _cell(step: Step | None) -> str:
    if step is None:
        return f"{'-':>22}"
    split = "" if step.wait is None else f"{step.wait:.0f}+{step.client:.0f}"
    return f"{step.ms:>7.0f} {split:>14}"


def print_steps(results: dict[Profile, dict[str, Typical | str]]) -> None:
    desktop, cheap = (results[p] for p in PROFILES)
    print(
        f"\n  ms from the tap to the answer on screen = wait (server + network) + phone (parse, scripts, swap),"
        f"\n  medians over {ROUNDS} rounds, and the cheap phone's slowest round;"
        f"\n  cheap phone: 150 ms round trip, 1.6/0.75 Mbps, CPU x4. '>' marks a step above {TARGET_MS:.0f} ms there.",
        flush=True,
    )
    head = f"  {'step':<30}{'kind':<6}{'kB':>6}"
    print(head + "".join(f"{p.name:>23}" for p in PROFILES) + f"{'slowest':>9}", flush=True)
    for name in desktop:
        typical_fast, typical_slow = desktop[name], cheap.get(name)
        print(f"  -- {name}", flush=True)
        if isinstance(typical_fast, str) or not isinstance(typical_slow, Typical):
            print("     (failed, see above)", flush=True)
            continue
        fast, slow = typical_fast.hand, typical_slow.hand
        for i, step in enumerate(fast.steps):
            other = slow.steps[i] if i < len(slow.steps) else None
            worst = f"{typical_slow.worst[i]:>9.0f}" if i < len(typical_slow.worst) else ""
            mark = ">" if other is not None and other.ms > TARGET_MS else " "
            kb = f"{step.kb:.1f}" if step.kb is not None else "?"
            print(f" {mark}{step.label[:29]:<30}{step.kind:<6}{kb:>6}{_cell(step)}{_cell(other)}{worst}", flush=True)
        over = sum(1 for s in slow.steps if s.ms > TARGET_MS)
        print(
            f"   {'whole hand':<41}{fast.total_ms:>7.0f}{'':>15}{slow.total_ms:>7.0f}"
            f"   ({over} of {len(slow.steps)} steps above {TARGET_MS:.0f} ms)",
            flush=True,
        )


def print_summary(results: dict[Profile, dict[str, Typical | str]]) -> None:
    """Medians over every game's steps, by kind: the shape that holds when single steps jump
    (a busy machine stalls the phone's throttled CPU most)."""
    print(f"\n  medians over all hands{'':<10}{'steps':>6}{'ms':>7}{'wait':>7}{'phone':>7}{'kB':>6}", flush=True)
    for profile, hands in results.items():
        steps = [s for h in hands.values() if isinstance(h, Typical) for s in h.hand.steps]
        for kind in ("swap", "load"):
            mine = [s for s in steps if s.kind == kind and s.wait is not None]
            if not mine:
                continue
            over = sum(1 for s in mine if s.ms > TARGET_MS)
            print(
                f"  {profile.name + ', ' + kind + 's':<32}{len(mine):>6}"
                f"{statistics.median(s.ms for s in mine):>7.0f}{statistics.median(s.wait or 0 for s in mine):>7.0f}"
                f"{statistics.median(s.client or 0 for s in mine):>7.0f}{statistics.median(s.kb or 0 for s in mine):>6.1f}"
                f"   {over} above {TARGET_MS:.0f} ms",
                flush=True,
            )
        held = [s.held for s in steps if s.held is not None]
        if held:
            print(
                f"  {'':<32}{'':>6}   the finger stayed down {statistics.median(held):.0f} ms before each click",
                flush=True,
            )
        taps = [w for h in hands.values() if isinstance(h, Typical) for w in h.worst]
        stalled = sum(1 for w in taps if w > TARGET_MS)
        print(f"  {'':<32}{'':>6}   slowest round: {stalled} of {len(taps)} steps above {TARGET_MS:.0f} ms", flush=True)


def main() -> None:
    machine()
    results = run()
    print_counts(results)
    print_steps(results)
    print_summary(results)
    broken = sorted({name for hands in results.values() for name, h in hands.items() if isinstance(h, str)})
    if broken:
        raise RuntimeError(f"paths that could not be played to their end: {', '.join(broken)}")


if __name__ == "__main__":
    main()
