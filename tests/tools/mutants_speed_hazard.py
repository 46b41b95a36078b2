"""The mutants of the speed-and-hazard rules (tests/tools/mutate.py speed-hazard): each breaks one
rule of docs/rules/speed-hazard.md in the source of one engine module (rules.py or game.py: the
hazard count, the turn order, a ram's dice, the pit road's limits, ...), or how content.py reads
the pack's data (caught by the scenarios on the pack's data). The pack's rule scenarios must fail
(about two seconds per mutant).

Left out as equivalent (no scenario can catch them): rounding the squares or the hazard count
down instead of up (every speed and limit is a multiple of 10 km/h), dropping the "not the
square where it stops" test of Sabotage (that square holds the car, already excluded as
occupied), and the flag that ends the move on entering the pit road (shopping ends the turn).
"""

from __future__ import annotations

from mutate import ROOT, Table, edit

PKG = "slipstream.engine.rulesets.speed_hazard."
RULES, GAME, CONTENT = PKG + "rules", PKG + "game", PKG + "content"

M = edit
MUTANTS = [
    M(RULES, "    return 0 if over <= 0 else -(-over // SQUARE_KMH)", "    return 0 if over <= 0 else 1"),
    M(RULES, '    return per_added if mode == "accelerated" else', '    return 1 if mode == "accelerated" else'),
    M(RULES, "    if added <= 0 or speed_after <= limit:", "    if added <= 0:"),
    M(RULES, "min(per_added, hazards_over(speed_after, limit))", "per_added"),
    M(RULES, "    return (number, -speed, -progress, lane, pit_seq, seat)", "    return (number, speed, -progress, lane, pit_seq, seat)"),
    M(RULES, "    return (number, -speed, -progress, lane, pit_seq, seat)", "    return (number, -speed, progress, lane, pit_seq, seat)"),
    M(RULES, "    return (number, -speed, -progress, lane, pit_seq, seat)", "    return (number, -speed, -progress, -lane, pit_seq, seat)"),
    M(RULES, "    return (number, -speed, -progress, lane, pit_seq, seat)", "    return (-number, -speed, -progress, lane, pit_seq, seat)"),
    M(RULES, "    return max(0, sum(faces_rolled) - armour)", "    return max(0, sum(faces_rolled))"),
    M(RULES, "    return speed if nitrous else min(speed, maximum)", "    return speed"),
    M(RULES, "    return [a for a in amounts if 0 < a <= speed]", "    return [a for a in amounts if 0 < a]"),
    M(RULES, "speed + a <= maximum and not", "speed + a <= maximum + 10 and not"),
    M(RULES, "not (in_pit and speed + a <= 0)", "True"),
    M(GAME, '            return a.kind == "accelerate" and (not a.needs', '            return True and (not a.needs'),
    M(GAME, ' and not self.insane(car, "no-brake")', ""),
    M(GAME, "            return sum(car.tokens.values()) > 0 and rules.squares(car.speed) >= need",
      "            return rules.squares(car.speed) >= need"),
    M(GAME, "cards[p].number + late", "cards[p].number"),
    M(GAME, "        self.rng.shuffle(self.grid)", "        pass"),
    M(GAME, "        self.queue = sorted(self._hidden, key=key)", "        self.queue = sorted(self._hidden)"),
    M(GAME, '            if key.startswith("equip "):  # played', '            if False:  # played'),
    M(GAME, "        if not other.wreck:\n            self._damage(other, theirs, \"rear-end\")",
      "        if False:\n            self._damage(other, theirs, \"rear-end\")"),
    M(GAME, '        mine, theirs = self.decks.setup.dice_of("forced_rear_end")', "        mine, theirs = 1, 1"),
    M(GAME, '        if kind != "side":\n            t.ended = True', '        if kind == "head-on":\n            t.ended = True'),
    M(GAME, "            car.speed = target.speed = 0", "            car.speed = 0"),
    M(GAME, "        slide = kind == \"side\" and self.o_wall", "        slide = False and self.o_wall"),
    M(GAME, "        if t.drops >= min(t.card.drops) and opts:", "        if opts:"),
    M(GAME, "        kinds = [t.dropped] if t.dropped else [k for k, v in car.tokens.items() if v > 0]",
      "        kinds = [k for k, v in car.tokens.items() if v > 0]"),
    M(GAME, "        passed = t.passed if self.o_start_square else t.passed[1:]", "        passed = t.passed"),
    M(GAME, "        if car.speed > car.maximum:\n            car.speed = car.maximum", "        if False:\n            car.speed = car.maximum"),
    M(GAME, '        if car.nitrous and self.o_nitrous == "turn" and not car.wreck:', "        if False:"),
    M(GAME, '            elif op == "reshuffle":', '            elif op == "reshuffle" and False:'),
    M(GAME, '                if where == "nitrous" and self.has(car, "nitrous_safe"):', "                if False:"),
    M(GAME, "                car.speed += e.n\n", "                car.speed += e.n // 2\n"),
    M(GAME, '        car.luck -= 1\n        self.stats["luck_spent"] += 1\n        i, kind = t.drawn, t.drawn_kind',
      '        car.luck -= 0\n        self.stats["luck_spent"] += 1\n        i, kind = t.drawn, t.drawn_kind'),
    M(GAME, '        self.event("hazard", p=t.car, card=card.id)\n        if car.luck > 0 and not self.insane(car, "no-luck"):',
      '        self.event("hazard", p=t.car, card=card.id)\n        if car.luck > 0:'),
    M(GAME, '            if self.has(car, "sane"):', "            if False:"),
    M(GAME, "                car.insanity.append(i)", "                self.hazard_used.append(i)"),
    M(GAME, '                car.speed = 0\n                t.ended = True\n                self.event("spin"', '                car.speed = 0\n                self.event("spin"'),
    M(GAME, "        car.maximum = max(0, car.maximum - rules.SQUARE_KMH * pts)", "        car.maximum = max(0, car.maximum - 5 * pts)"),
    M(GAME, "        if car.maximum <= 0:\n            self._wreck(car)", "        if car.maximum < 0:\n            self._wreck(car)"),
    M(GAME, "        return {c.node: c.seat for c in self.cars if not c.in_pit and c.node >= 0}",
      "        return {c.node: c.seat for c in self.cars if not c.in_pit and c.node >= 0 and not c.wreck}"),
    M(GAME, "            elif x not in occ:\n                out.append(x)", "            else:\n                out.append(x)"),
    M(GAME, "        return any(e.cell == name and (e.main or self.o_all_pits) for e in pit.entries)",
      "        return any(e.cell == name for e in pit.entries)"),
    M(GAME, "            follows = ca is not None and car.free_corner == ia and (", "            follows = False and ("),
    M(GAME, "        elif ib >= 0 and self.b.lane[x] < self.b.lane[before]:", "        elif False:"),
    M(GAME, "            if self.o_leaving:", "            if True:"),
    M(GAME, '            if car.nitrous and self.o_nitrous == "curve":', "            if False:"),
    M(GAME, "        kind = self.on_board.pop(x, None)\n        if kind is not None:\n            self._token_hit(t, car, kind)\n        if go_on:",
      "        kind = self.on_board.get(x)\n        if kind is not None:\n            self._token_hit(t, car, kind)\n        if go_on:"),
    M(GAME, "        immune = any(kind in self.equip_by_id[e].immune for e in car.equipment)", "        immune = False"),
    M(GAME, "        if tk.hazards:\n            self._owe(t, car, tk.hazards, car.node)", "        if False:\n            self._owe(t, car, tk.hazards, car.node)"),
    M(GAME, "        if tk.damage:\n            self._damage(car, tk.damage, kind)", "        if False:\n            self._damage(car, tk.damage, kind)"),
    M(GAME, "        if tk.slow:\n            self._slow(car, tk.slow, kind)", "        if False:\n            self._slow(car, tk.slow, kind)"),
    M(GAME, "        car.speed = max(0, car.speed - kmh)", "        car.speed = max(0, car.speed - kmh // 2)"),
    M(GAME, "            n = rules.hazards_over(car.speed, entry.speed)", "            n = 0"),
    M(GAME, '        if t.points >= s.price("repair") and car.maximum < s.cap:', '        if t.points >= s.price("repair"):'),
    M(GAME, '        if t.points >= s.price("token") and sum(car.tokens.values()) < s.token_hold:', '        if t.points >= s.price("token"):'),
    M(GAME, '        car.speed, car.nitrous = 0, False\n        self.event("pit-stop"', '        car.nitrous = False\n        self.event("pit-stop"'),
    M(GAME, "        if len(car.equipment) > self.decks.setup.equipment_hold:", "        if False:"),
    M(GAME, "        if first.seat != car.seat:\n            return []", "        if False:\n            return []"),
    M(GAME, "        if not pit.can_win and was < car.goal <= car.progress:", "        if False:"),
    M(GAME, "        if not car.reversed and car.progress >= car.goal:", "        if not car.reversed and car.progress > car.goal:"),
    M(GAME, "        return head + [c.seat for c in alive] + list(reversed(self.wrecked))", "        return head + [c.seat for c in alive] + list(self.wrecked)"),
    M(GAME, '        curve, after = (10, 10) if kind == "turn" else (40, 0)', '        curve, after = (10, 0) if kind == "turn" else (40, 0)'),
    M(GAME, '        curve, after = (10, 10) if kind == "turn" else (40, 0)', '        curve, after = (10, 10) if kind == "turn" else (30, 0)'),
    M(GAME, "        if car.speed >= 40 and (edge", "        if car.speed >= 30 and (edge"),
    M(GAME, '        found = [(y, "rear") for y in direct if y in cars] + [(y, "side") for y in side if y in cars]',
      '        found = [(y, "side") for y in direct if y in cars] + [(y, "rear") for y in side if y in cars]'),
    M(GAME, "        if self.o_beside:\n            found +=", "        if True:\n            found +="),
    M(GAME, '            kind = "head-on" if how == "rear" and target.reversed != car.reversed else how', "            kind = how"),
    M(GAME, '        if t.card.kind == "ram" and not t.rammed and not car.wreck:\n            opts = self._ram_options(car)',
      '        if False:\n            opts = self._ram_options(car)'),
    M(GAME, "        if not self.hazard_deck:\n            self.hazard_deck, self.hazard_used = self.hazard_used, []",
      "        if False:\n            self.hazard_deck, self.hazard_used = self.hazard_used, []"),
    M(GAME, "            if t.steps >= rules.squares(car.speed) + t.extra:", "            if t.steps >= rules.squares(car.speed) + t.extra + 1:"),
    M(GAME, "            t.points -= s.price(\"equipment\")", "            t.points -= 1"),
    M(GAME, "            t.points -= s.price(\"therapy\")", "            t.points -= 1"),
    # issue 30: a deck made anew from its discard pile is an event (the scenarios expect it)
    M(GAME, '            if self.hazard_deck:\n                self.event("reshuffle"', '            if False:\n                self.event("reshuffle"'),
    M(GAME, '            if self.nitrous_deck:\n                self.event("reshuffle"', '            if False:\n                self.event("reshuffle"'),
    # issue 30: the U-turn, the lap count backwards over the line, the pit exit
    M(GAME, "        for x in path:\n            if car.wreck:", "        for x in path[-1:]:\n            if car.wreck:"),
    M(GAME, '(edge or self.o_uturn_lanes == "skid-any-lane")', "(True)"),
    M(GAME, '(edge or self.o_uturn_lanes == "skid-any-lane")', "(edge)"),
    M(GAME, "        edge = sp.lane == 0 or sp.lane == lanes - 1", "        edge = sp.lane == 0"),
    M(GAME, "            return bool(self.u_turn_paths(car, False))", "            return bool(self.u_turn_paths(car, True))"),
    M(GAME, "            turns = self.u_turn_paths(car, True)", "            turns = self.u_turn_paths(car, False)"),
    M(GAME, '            self.event("u-turn-impossible", p=t.car)  # revealed all the same; it drives on normally\n',
      '            self.event("u-turn-impossible", p=t.car)\n            return self._end_turn(t)\n'),
    M(GAME, '        if d < 0 and self.o_reverse_laps == "unchanged" and car.progress % self.n == 0:', "        if False:"),
    M(GAME, '        if d < 0 and self.o_reverse_laps == "unchanged" and car.progress % self.n == 0:',
      "        if d < 0 and car.progress % self.n == 0:"),
    M(GAME, "            self._advance(car, 1 if car.reversed else -1)", "            car.progress += 1 if car.reversed else -1"),
    M(GAME, "        if not car.reversed and car.progress >= car.goal:\n            return self._win(car)  # a skid",
      "        if False:\n            return self._win(car)  # a skid"),
    M(GAME, "        if len(exits) == 1:\n            return self._pit_out(t, exits[0])",
      "        if len(exits) >= 1:\n            return self._pit_out(t, exits[0])"),
    M(GAME, "and sp.index not in occ and sp.index not in out:", "and sp.index not in out:"),
    M(GAME, "        if lay >= 0 and lay != car.node:", "        if False:"),
    # the pack's data as content.py reads it (scenarios with `expect: pack:`)
    M(CONTENT, 'int(d["pit"]["points"])', 'int(d["pit"]["points"]) + 1'),
    M(CONTENT, "        out += [card] * int(c[\"count\"])", "        out += [card]"),
    M(CONTENT, 'tuple(int(x) for x in d["damage_die"])', 'tuple(int(x) for x in d["damage_die"][1:])'),
    M(CONTENT, 'tuple((k, int(d["pit"][k])) for k in', 'tuple((k, 1) for k in'),
]

TABLE = Table("speed-hazard", "the speed-and-hazard rules", MUTANTS, pack=ROOT / "content" / "speed-hazard")
