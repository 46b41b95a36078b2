"""The table of diagnostic codes. Codes are stable: never reuse or renumber one.

docs/diagnostics.md is generated from this table (`slipstream codes --markdown`), and a test
keeps the two in step.

Families: F files, Y YAML, S schema, T tracks, I imports, P packs, E effects, C scenarios.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: str
    title: str
    cause: str
    fix: str


_TABLE: list[Code] = [
    # Files
    Code("F001", "error", "file not found", "A path given on the command line does not exist.", "Check the spelling of the path."),
    Code("F002", "warning", "not a Slipstream file", "A YAML file inside a validated folder has no `slipstream:` format tag and was skipped.", "Add `slipstream: track/1` (or the tag of its kind) as the first key, or move the file out of the folder."),
    Code("F003", "error", "unknown format tag", "The `slipstream:` tag names a kind or version this tool does not know, or a file in a pack's tests/ folder (which holds rule scenarios) is tagged as pack data.", "Use one of the tags listed in docs/formats.md, e.g. `track/1`; keep pack data out of tests/."),
    Code("F004", "error", "cannot read file", "The file could not be opened (permissions, a folder, a broken link).", "Make the file readable."),
    # YAML
    Code("Y001", "error", "YAML syntax error", "The file is not well-formed YAML.", "Fix the syntax at the position shown (indentation, a missing colon, an unclosed quote)."),
    Code("Y002", "error", "duplicate key", "A mapping names the same key twice; YAML would silently keep only one.", "Remove or rename one of the two keys."),
    Code("Y003", "error", "tag not allowed", "A YAML tag such as `!!python/object` asks for object construction; only plain data is accepted.", "Remove the tag; write plain strings, numbers, lists and mappings."),
    Code("Y004", "error", "too many nodes", "Aliases expand to more nodes than the limit (an alias bomb, or a runaway file).", "Use fewer aliases or split the file."),
    Code("Y005", "error", "file too large", "The file is larger than the size limit.", "Split the content over several files."),
    Code("Y006", "error", "nesting too deep", "Lists or mappings are nested deeper than the limit.", "Flatten the structure."),
    Code("Y007", "error", "not UTF-8 text", "The file holds bytes that are not UTF-8 text (a binary file, or another encoding).", "Save the file as UTF-8 text."),
    Code("Y008", "error", "empty file", "The file holds no YAML document.", "Write the content, starting with the `slipstream:` format tag."),
    Code("Y009", "error", "several documents", "The file holds more than one YAML document (`---`).", "Keep one document per file."),
    Code("Y010", "error", "unsupported key", "A mapping key is not a plain scalar (a list or mapping used as a key).", "Use strings as keys."),
    Code("Y011", "error", "number too long", "A number is written with more characters than the limit (docs/diagnostics.md lists the limits).", "Write an ordinary number of a few digits."),
    # Schema
    Code("S001", "error", "schema violation", "A value does not match the JSON Schema of its file kind.", "Follow the message; `slipstream schema -o DIR` writes the schemas for editor autocompletion."),
    Code("S002", "error", "unknown property", "A mapping has a key that its schema does not define (often a typo).", "Check the key's spelling against the schema."),
    Code("S003", "error", "missing property", "A required key is absent.", "Add the key."),
    Code("S004", "warning", "schema problems cut off", "A file has more schema problems than the limit; only the first ones are listed.", "Fix the problems listed (often one mistake repeated) and validate again."),
    # Tracks
    Code("T101", "error", "bad layout token", "A layout token is not `G`, `GxK` (G in 3-6, K ≥ 1), `-` or `-xK`.", "Write tokens such as `3`, `4x2`, `-`, `-x3`, separated by spaces."),
    Code("T102", "error", "lane length mismatch", "A lane's tokens cover a different number of segments than the other lanes.", "Make every lane string cover the same number of segments."),
    Code("T103", "error", "lane count mismatch", "`lanes` differs from the number of layout strings.", "Set `lanes` to the number of strings under `layout`."),
    Code("T104", "error", "empty lane", "A lane has no spaces at all (only `-`).", "Give the lane spaces or remove it."),
    Code("T105", "error", "grid slot on missing cell", "A grid slot names a lane or segment outside the track, or a segment where its lane does not exist.", "Move the slot onto an existing cell."),
    Code("T106", "error", "duplicate grid slot", "Two grid slots stand on the same cell.", "Give each slot its own cell."),
    Code("T107", "error", "grid not pole first", "Grid slots are not listed from the front (pole) backwards; a slot stands ahead of the one listed before it.", "List the slots pole first: furthest along the lap first, inner lane first on a tie."),
    Code("T108", "warning", "fewer than 5 grid slots", "The track has fewer than 5 grid slots, so a 5-player race cannot start.", "Add grid slots up to 5."),
    Code("T109", "warning", "grid money not rising", "A slot further back offers less money than a slot ahead of it; the rules give back slots more.", "Give each slot at least the money of the slot ahead of it."),
    Code("T110", "error", "unreachable spaces", "No car starting on the grid can ever reach these spaces.", "Connect them: put a space directly or diagonally behind them in reach of the racing line."),
    Code("T111", "error", "finish unreachable", "From these spaces a car can never reach the finish line again (they lead only into dead ends).", "Open a way forward from them towards the finish line."),
    Code("T112", "error", "dead end", "No space lies directly or diagonally ahead of this space: a car here can never move again.", "Continue the lane, or let the lane end where a neighbouring lane exists one segment ahead."),
    Code("T113", "error", "no lap cycle", "No route leads from the grid round the track and across the finish line again.", "Connect the lanes so that a full lap is possible."),
    Code("T114", "warning", "gear colour absent", "A gear colour never appears on the track, so its cubes can never move the car.", "Paint some spaces in that colour, or accept that the gear is useless here."),
    Code("T115", "warning", "colour out of reach", "Over a stretch of the lap a gear colour cannot be reached within a few steps, so its cubes are dead there.", "Paint a space of that colour within reach of the stretch."),
    Code("T116", "warning", "grid behind the start", "A grid slot lies far from the finish line; cars would drive most of an extra lap.", "Put the grid just behind the finish line (the last segments of the lap)."),
    # Tracks: format track/2
    Code("T117", "error", "track too large", "A lane covers more segments, or the lanes together more cells (lanes × segments), than the limits in docs/diagnostics.md allow.", "Split the track into shorter ones, or draw fewer, longer spaces."),
    Code("T118", "error", "grid without slots", "The track's grid lists no slot, so no car has a place to start a race.", "Add grid slots, pole first, on cells just behind the finish line."),
    Code("T120", "error", "corner out of range", "A corner's `from` or `to` is not a segment of the track.", "Use segments 0..N-1; a corner that wraps the finish has `to` smaller than `from`."),
    Code("T121", "error", "corners overlap", "Two corners share segments.", "Shorten one of them or merge them into one corner."),
    Code("T122", "warning", "corners out of running order", "The corners are not listed in the order a car meets them.", "List the corners in running order from the finish line."),
    Code("T123", "error", "stops outside 1-3", "A corner asks for a number of stops other than 1, 2 or 3.", "Give `stops` as 1, 2 or 3, or leave it out."),
    Code("T124", "error", "more stops than squares", "A corner asks for more stops than it has segments, so no car could make them all.", "Lower `stops` or lengthen the corner."),
    Code("T125", "error", "bad speed limit", "A speed limit is not a positive multiple of the speed unit of the track's rulesets.", "Use a positive multiple of the unit (10 for the speed-and-hazard racer)."),
    Code("T126", "error", "speed limit outside the corner", "A per-lane or per-space speed limit names a lane or space that is not part of the corner.", "Name lanes of the track and spaces inside the corner's segments."),
    Code("T130", "error", "link names a missing space", "A link names a space that does not exist (names are `lane:first_segment`).", "Use the name of an existing space of the main track."),
    Code("T131", "error", "link not forward", "An added link points backwards or sideways; every step must lead forward.", "Link a space to one further along the lap, or remove the link."),
    Code("T132", "warning", "link changes nothing", "The link removes a step the move graph does not have, or adds one it already has.", "Remove the link, or correct the spaces it names."),
    Code("T133", "error", "links break the lap", "Without the links a full lap is possible; with them no route leads round the track.", "Remove the link that cuts the last way forward."),
    Code("T134", "error", "links strand spaces", "The links cut these spaces off: the geometry reaches them, the move graph with the links does not.", "Keep at least one step into every space."),
    Code("T140", "error", "pit cell missing", "A pit entry or exit names a main-track space or a pit segment that does not exist.", "Use an existing main-track space and a segment of the pit layout."),
    Code("T141", "error", "pit entry leads nowhere", "From this pit entry no exit of the pit lane can be reached.", "Move the entry or an exit so that the pit lane leads from one to the other."),
    Code("T142", "error", "pit exit behind entry", "The pit lane rejoins the main track level with or behind where it left it.", "Put the exit ahead of the entry (at most half a lap)."),
    Code("T143", "error", "box outside the pit", "A pit box is not a segment of the pit lane.", "Use a segment of the pit layout."),
    Code("T150", "warning", "unknown ruleset", "`rulesets:` names a ruleset that is not installed and whose track needs are unknown, so its checks did not run.", "Install the ruleset, or correct its id (`slipstream rulesets` lists them)."),
    Code("T151", "error", "corner without stops", "A ruleset of the track needs a stop count on every corner.", "Give the corner `stops: 1`, `2` or `3`."),
    Code("T152", "error", "grid too small for ruleset", "A ruleset of the track needs more grid slots than the track has.", "Add grid slots."),
    Code("T153", "error", "corner without speed limit", "A ruleset of the track needs a speed limit on every corner.", "Give the corner `speed`, `lane_speeds` or `space_speeds`."),
    Code("T154", "error", "plain squares for a colour ruleset", "A ruleset of the track needs a gear colour on every space, and these spaces are plain.", "Paint the spaces in gear colours (3-6), or remove the ruleset from `rulesets:`."),
    Code("T155", "warning", "unknown board feature", "No ruleset of the track declares this kind of board feature, so nothing reads it.", "Use a feature kind one of the track's rulesets declares, or add that ruleset."),
    Code("T156", "error", "feature on a missing space", "A board feature names a space that does not exist.", "Use an existing space (`lane:first_segment` or `pit:K`)."),
    Code("T157", "warning", "track lacks what its ruleset races on", "The track is raced by a ruleset that reads something it does not have: a Formula Dé-style race needs corners (with stops), a speed-and-hazard race corners with speed limits; without them the race runs as a plain dash round the lanes.", "Add corners (a track/2 with `corners:` and their stops or speed limits), or start from `slipstream new track NAME --ruleset ID`."),
    # Packs (engine/packs/loader.py, engine/rulesets/automobiles/contentcheck.py)
    Code("P001", "error", "not a pack", "A folder given as a pack holds no `pack.yaml`.", "Create one with `slipstream new pack NAME`, or point at the pack's folder."),
    Code("P002", "error", "misplaced pack manifest", "A `pack/1` file inside a pack is not the pack's own `pack.yaml`.", "Rename it to pack.yaml at the top of the pack, or move it into a folder of its own to make a separate pack."),
    Code("P010", "error", "duplicate id", "Two items of one kind (cards, drivers, sponsors, card sets, cube kinds, tracks) in one pack share an id.", "Rename one of them; ids are unique per kind within a pack."),
    Code("P011", "error", "unknown card in card set", "A card set names a card id that neither this pack nor the packs it extends define.", "Fix the id (`slipstream cards PACK` lists them) or define the card."),
    Code("P012", "error", "two cards of one colour", "A card set names two action cards of the same colour; a game has exactly one card per action colour.", "Keep one card of that colour in the set."),
    Code("P013", "error", "card set misses a colour", "A card set has no card for one or more action colours.", "Add one card of every action colour to the set."),
    Code("P014", "error", "not an action card", "A card set names a fixed card (gear or wear) or a card whose colour is not an action colour.", "Card sets choose action cards only; the gear and wear cards are always in play."),
    Code("P015", "error", "unknown card colour", "A card's `colour` is not the id of a cube kind of the pack.", "Use a cube kind id such as `yellow`, `red`, `purple`, `blue`, `green` (or `gear-3`... / `wear` for fixed cards)."),
    Code("P016", "error", "fixed card problem", "A gear or wear kind has no fixed card, has two, or a card's `fixed` flag does not match its colour's role.", "Give every gear and wear kind exactly one card with `fixed: true`, and mark no action card fixed."),
    Code("P017", "error", "override of unknown item", "An `overrides:` entry (or a `removes:` entry of a Formula Dé-style or speed-and-hazard data file) names an item that no extended pack defines: an id, a gear or a race length.", "Fix the id, or define the item in the main list if it is new."),
    Code("P018", "error", "unknown pack in reference", "A namespaced id `PACK:ID` names a pack that this pack does not extend.", "Add the pack to `extends`, or fix the prefix."),
    Code("P020", "error", "extends unknown pack", "`extends` names a pack that is neither next to this pack's folder, in the search folders, nor bundled.", "Fix the id, or put that pack's folder next to this one."),
    Code("P021", "error", "extends cycle", "Packs extend each other in a circle, so none of them can be built.", "Remove one `extends` entry of the cycle."),
    Code("P022", "error", "extended pack has errors", "A pack named in `extends` has errors of its own.", "Validate that pack and fix it first."),
    Code("P023", "error", "id clash across packs", "An item has the same id as an item of an extended pack (or two extended packs both define it).", "Rename it, change the inherited item with `overrides:`, or list the inherited id under `replaces:` in pack.yaml."),
    Code("P024", "error", "track id clash across packs", "A track has the same id as a track of an extended pack.", "Rename the track, or list the inherited track under `replaces:` in pack.yaml to replace it."),
    Code("P025", "error", "replaces names nothing", "A `replaces:` entry names an inherited item that this pack does not redefine.", "Define the replacement item with the same id, or remove the entry."),
    Code("P026", "warning", "ambiguous extends", "Two or more pack folders in the place `extends` looks have the pack id it names; the first by folder name is used.", "Give every pack its own id, or move the other copies away."),
    Code("P028", "error", "unknown ruleset", "`ruleset:` in pack.yaml names a ruleset that is not installed.", "Use the id of an installed ruleset (`slipstream rulesets` lists them), or leave it out for `automobiles`."),
    Code("P029", "error", "extends a pack of another ruleset", "A pack extends a pack whose `ruleset:` differs from its own; content of one ruleset means nothing to another.", "Extend a pack of the same ruleset, or give this pack the same `ruleset:`."),
    Code("P030", "error", "supply too small", "A cube kind's stock holds fewer cubes than the starting bags of the largest race take out of it.", "Raise the supply, or lower `players.max` or the starting bag."),
    Code("P031", "error", "unknown cube kind in rules", "The starting bag names a cube kind that the pack does not define.", "Use the id of a cube kind (cubes/1 files)."),
    Code("P032", "error", "wear table mismatch", "`wear_by_darkest` does not give the Decline wear for exactly the gear cube kinds.", "List every gear kind once, and nothing else."),
    Code("P033", "error", "gear number taken twice", "Two gear cube kinds have the same gear number (space colour).", "Give each gear number 3-6 to one cube kind only."),
    Code("P034", "error", "rules incomplete", "After merging with the extended packs, a rule constant or option (or the cube kinds) has no value.", "Give it in a rules/1 file, or extend `base` to inherit them."),
    Code("P035", "error", "several rules files", "A pack holds more than one rules file (Automobiles `rules/1`, or the house rules `RULESET-rules/1` of another ruleset).", "Keep one rules file per pack."),
    Code("P036", "error", "duplicate sponsor level", "Two sponsors have the same family and level.", "Give each family one sponsor per level 1-3."),
    Code("P037", "warning", "sponsor level weaker", "A sponsor level gives smaller numbers than the level below it in the same bracket.", "Make higher levels at least as strong as lower ones."),
    Code("P038", "warning", "action colour without card", "An action colour has no card at all, so no card set can be complete.", "Add at least one card of that colour."),
    Code("P039", "error", "grid money too short", "`grid_money` has fewer slots than the largest race has players.", "Give one amount per grid slot, pole first."),
    Code("P040", "warning", "season points too short", "The season points list has fewer places than a race may have players; the rest score nothing.", "List points for every place, or use `players_minus_place`."),
    Code("P041", "error", "player range empty", "`players.min` is greater than `players.max`.", "Swap or fix the two numbers."),
    Code("P042", "error", "sponsor without standard removal", "A sponsor bracket does not start with the standard removal step (`remove` with `as: standard`).", "Start each bracket with `- remove: {from: owned, count: {up_to: N}, as: standard}`."),
    Code("P043", "error", "dice or wear table missing", "A Formula Dé-style pack (with what it extends) has no gears/1 or wear/1 file, or holds two, a table without rows or without its `black_die` / `basic_pool`, or gear dice that do not run from 1st gear without a gap.", "Keep one gears/1 and one wear/1 file in the pack, or extend `formula-de` to inherit them."),
    Code("P044", "error", "speed-and-hazard data unusable", "A speed-and-hazard pack (with what it extends) lacks one of its data kinds (action cards, hazard, nitrous and equipment decks, car setup) or holds two files of one, its action cards miss one of Brake, Accelerate, Ram and Sabotage, a brake or accelerate card has no amounts, a deck has no cards (an extending pack removed them all), a speed is not a multiple of 10 km/h, or the starting speed or maximum is above the maximum or the repair cap.", "Add the missing file or extend `speed-hazard`; give every card its own id and every speed in steps of 10 km/h."),
    # Formula Dé-style designer data (engine/rulesets/formula_de/designcheck.py)
    Code("P050", "error", "unknown or missing wear category", "A Formula Dé-style pack names a wear category it does not declare (a wear row's column, a corner kind's or weather's cost), leaves one of the five printed categories out, declares a category some wear row gives no points of, or gives a category a cost by gear, a limp gear or a cause it cannot use.", "Declare the category in a wear-categories/1 file and give its points in every wear row; keep tyres, brakes, transmission, body and engine."),
    Code("P051", "error", "corner kind misused", "A Formula Dé-style corner kind asks for `least_stops` not below its stops, a `max_gear` above the pack's gears or a too-fast cost without a `max_gear`, two kinds are the default of one number of stops, or a track's corner names a kind the pack does not have or gives stops its kind does not.", "Name a kind of the pack's corner-kinds/1 (or declare it there); leave `stops` out on a corner that names a kind."),
    Code("P052", "error", "weather misused", "A Formula Dé-style weather/1 file names a condition it does not declare (`start`, the schedule, the deck), has no conditions, gives both a schedule and a deck, or a condition asks for a gear above the pack's.", "Declare every condition under `conditions:` and keep either a schedule or a deck."),
    # Effects checked against the pack (engine/rulesets/automobiles/effectcheck.py)
    Code("E101", "error", "unknown effect primitive", "An effect step names a primitive that the effect vocabulary does not have.", "Use a primitive listed in docs/effects.md (the hint suggests the nearest one)."),
    Code("E102", "error", "unknown zone", "An effect names a zone that does not exist.", "Use a zone of docs/effects.md: bag, active, used, track, discard, revealed, board, owned (or `played` as a source)."),
    Code("E103", "error", "unknown cube kind", "An effect names a cube kind that the pack (with the packs it extends) does not define.", "Use a cube kind id of the pack, or a group: `gears`, `actions`."),
    Code("E104", "error", "unknown gear colour", "A move names a space colour that no gear cube kind of the pack has.", "Use the gear numbers of the pack's gear kinds (3-6 in base)."),
    Code("E105", "error", "unknown selection", "An effect reads a selection (`among`, `selected`, `cost_of`, `one_higher`, `same_as`, `one_lower`, `lower_than`) that no earlier step of the list names with `as:`.", "Name the earlier step with `as: NAME`, or fix the spelling."),
    Code("E106", "warning", "counter never raised", "An effect reads a turn counter or race counter that no effect of the pack raises with `add_counter` (`lasts: race` for a race counter), so it is always 0, or a flag that no effect sets with `set_flag`, so it is never set.", "Raise it with `add_counter` (set it with `set_flag`), or fix the name."),
    Code("E107", "error", "`all` where nothing is counted", "A move, a drive or `modify_turn.gear_spaces` counts its spaces with `all` or `{up_to: all}`: `all` means every matching cube, and spaces are not cubes, so the move would never end.", "Give a number or a count expression, e.g. `{up_to: 3}`."),
    Code("E108", "error", "played cube where none is played", "A step that needs the played cube (`move`, or `remove` / `move_cubes` / `select` `from: played`) stands where no cube is played: inside a `schedule` or `others` list, in a driver hook or a sponsor. It would do nothing.", "Use `drive` to move the car itself, or take cubes from a zone."),
    Code("E109", "error", "distribute over cubes it cannot send", "`distribute` names a selection (`among`) made by a step other than `select` or `draw` with `at_once`: its cubes have already gone where that step put them, and nothing would be sent.", "Pick the cubes with `select` (they stay where they lie until distributed) or draw them with `at_once: true`."),
    Code("E120", "warning", "money or Buy modifier without effect", "A sponsor reads or pays this turn's money (`{money: ...}`, `pay`) between races, where no turn's money exists, or a `modify_turn` changes Buy-phase prices or the purchase limit where the Buy phase is over (a sponsor, a driver hook after the Buy phase, a list scheduled `after_buy`, `after_car_move` or `after_end`).", "Use money forms and Buy-phase modifiers in cards or in `action` / `buy` driver hooks, or schedule them for `next_turn_start` / `next_action`."),
    Code("E121", "warning", "lane no track has", "A `lanes` rule of a move names a lane number that no track of the pack has, so no step can land there.", "Lanes count from 0 (innermost); use `outside` for the outermost lane of any track."),
    Code("E122", "warning", "watch that cannot fire", "A `watch` trigger stands where it can never fire (in a sponsor, which runs between races, or inside another watch's list), watches `when: enters` without `colours`, or a step names `who: mover` outside a watch's list, where no car's move fired anything.", "Arm triggers from a card or a driver hook, name the watched colours, and use `who: mover` inside a watch's `effect`."),
    Code("E123", "warning", "play condition misplaced", "A `play_if` step is not the first step of a card's effect: only there is it read (before the card may be played); anywhere else it does nothing.", "Move `play_if` to the top of the card's effect list."),
    Code("E124", "warning", "own-turn form where there is no turn", "A form that works in the player's own turn stands where it gets nothing: `gain_money` in a sponsor or in a watch's list (which runs in another player's turn), `modify_turn` with `lasts: race` or `{last_turn: ...}` in a sponsor.", "Use these forms in cards or driver hooks of the player's own turn."),
    # Speed-and-hazard card effects (engine/rulesets/speed_hazard/content.py)
    Code("E201", "error", "speed-and-hazard effect step malformed", "A step of a speed-and-hazard card's effects gives no action or more than one (schemas/sh-effect.schema.json lists the actions), a key that does not go with its action (`count` belongs to `draw` and `tokens`, `then` / `else` to `if`), or an `if` without `then` or `else`.", "Write one action per step; split a step that does two things into two steps."),
    Code("E202", "error", "speed-and-hazard effect out of place", "A step stands where it cannot act: nitrous mode on a hazard card, `reshuffle` anywhere but a nitrous card, `speed`, `draw`, `spin` or `move` in equipment's `on_keep` (the car is in the pit road), or `draw: nitrous` other than as the last step of an action card.", "Move the step to a card where it acts (docs/rules/speed-hazard.md, \"Designing new content\", lists where each may stand)."),
    Code("E203", "error", "unknown token kind", "A `tokens` step names a token kind the car setup (`car-setup/1` of the pack or the packs it extends) does not define.", "Use a token kind of the car setup, or add the kind there."),
    Code("E204", "error", "action card kind without effects", "An action card (or the action of an equipment card) has a kind the rules do not know and no `effects` or `choices`, gives `effects` or `choices` to one of the rules' own kinds (brake, accelerate, ram, sabotage, u-turn), gives both, or names two choices alike.", "Give a new kind its `effects` (or `choices`); leave the rules' own kinds without them."),
    # Scenarios (engine/rulesets/automobiles/scenarios.py; C109-C110 engine/rulesets/formula_de/scenarios.py and speed_hazard/scenarios.py)
    Code("C100", "error", "scenario pack unreadable", "`slipstream test` could not load the pack whose scenarios it should run.", "Run `slipstream validate` on the pack and fix its errors first."),
    Code("C101", "error", "unknown scenario track", "A scenario names a track id that the pack does not hold.", "Use a track id of the pack, or write the track inline with `layout:`."),
    Code("C102", "error", "unknown scenario card", "A scenario names a card set or card that the pack does not define, or puts a card under the wrong colour; in a speed-and-hazard scenario, a hazard, nitrous or equipment card its deck lacks (stacked, discarded, expected in a pile or in the pack's data), more copies than the deck holds (held by the cars, stacked and discarded together), or an action card it does not deal.", "Fix the id; `cards:` maps an action colour to a card of that colour."),
    Code("C103", "error", "unknown cube kind in scenario", "A zone, stock or expectation of a scenario names a cube kind (in a speed-and-hazard scenario, a hazard token kind) that is not in play.", "Use the cube kind ids of the pack (gear-3 ... gear-6, wear and the action colours)."),
    Code("C104", "error", "bad car position", "A car stands on a cell that does not exist, or two cars stand on the same segment; in a Formula Dé-style scenario also `box` on a track with no pit boxes, a box number its pit lane lacks, or a pit square in an expected `route`; a speed-and-hazard scenario's token lies on a square (or pit-road square `pit:S`) the track lacks.", "Put every car on its own existing cell (lane, segment)."),
    Code("C105", "error", "unknown scenario reference", "A scenario names a driver, sponsor or bot the pack or ruleset does not define, or `covers:` names an unknown card, driver, sponsor or rule, or a speed-and-hazard scenario's `expect: pack:` names a field the pack's data does not have.", "Fix the id."),
    Code("C106", "error", "bad player reference", "`turn`, a sponsor holder or an expectation refers to a player the scenario does not have.", "Number players from 0 in seat order."),
    Code("C107", "error", "bad scenario rule option", "A scenario sets a rule option that does not exist, or a value the engine does not implement.", "Use an option of the rules file (see docs/engine.md) with a supported value."),
    Code("C108", "error", "bad inline track", "The inline track of a scenario is not a valid layout.", "Fix the layout strings; every lane covers the same number of segments."),
    Code("C109", "error", "bad car state", "A Formula Dé-style scenario gives a car a gear the pack lacks, a wear category the rules do not use, stops outside a corner or beyond what it requires, a lap beyond the race, a grid car more than a name, wear and losses, starting wear (`race_wear`) in a category the rules do not use, losses (`lost`) by anything but the five categories, `serviced: false` for a car in its own box, or `spun` for a car in the pit lane; a speed-and-hazard scenario gives a car a speed above its maximum outside nitrous, a speed or maximum not in steps of 10 km/h, a maximum above the cap, or a grid car more than a name.", "Set gear 1..6, wear by the categories of the rules in use (`pool` in the basic rules), stops only inside a corner."),
    Code("C110", "error", "bad scripted roll", "A scripted roll of a Formula Dé-style scenario is not a face of its die, or names the die of a gear the pack does not have; a scripted damage die of a speed-and-hazard scenario shows points no face of the pack's damage die shows.", "Script the black die with 1..20 and each gear's die with its faces (content/formula-de/gears.yaml)."),
    # Imports of other tools' circuit files (engine/tracks/imports)
    Code("I001", "error", "unreadable import file", "The file to import is not well-formed in its format: truncated or broken JSON, a line of a GP Online file with the wrong number of fields or a word where a number belongs.", "Fix the file at the position shown, or export it again from the tool that made it."),
    Code("I002", "error", "unknown node type", "A GP Online node has a type number outside 0-7 (UNKNOWN, STRAIGHT, CURVE_2, CURVE_1, BLOCKED, FINISH, CURVE_3, PIT); type 0 (UNKNOWN) is read as a straight, with a warning.", "Give the node one of the listed types."),
    Code("I003", "error", "dangling reference", "An edge, `next` step, grid slot, attribute, pit reference or special-space list names a node, space or cell that the file does not define.", "Define the missing node or correct the id."),
    Code("I004", "error", "bad value in import file", "A field of the file has a value the format does not allow (a Heat cell in lane 3, a position used by more or fewer than two cells, a TTS lane outside 1..lanes, a missing field, a node defined twice); as a warning, a grid slot or corner that had to be skipped.", "Correct the value; docs/import.md lists what each format allows."),
    Code("I005", "error", "no lanes found", "The spaces cannot be laid out as lanes: no finish line is marked, a space has no next space in its own lane (or several), or some spaces lie on no loop through the finish line.", "Mark one finish-line space per lane and make every space lead on to one space of its lane."),
    Code("I006", "error", "step leads backwards", "Steps of the file go round in a circle without crossing the finish line, or positions along a lane do not rise from 0, so no step order fits a lap.", "Correct the direction of the step named, or the finish line."),
    Code("I007", "warning", "step left out", "Laid out as lanes and segments, a step of the file would lead sideways or backwards, which a track/2 link cannot say; the imported track leaves it out.", "Check the step on the board; if it is real, add or lengthen spaces in the editor so it leads forward, then add it as a link."),
    Code("I008", "error", "pit lane not a path", "The pit spaces do not form a single path with at least one entry from and one exit to the main track.", "Make each pit space lead on to exactly one other, from the entry to the exit."),
    Code("I009", "warning", "corners overlap", "Two corners of the file cover shared segments once laid out; the later corner is shortened (or dropped when nothing is left).", "Check the corner's spaces in the imported track and adjust `from` / `to`."),
]

CODES: dict[str, Code] = {c.code: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate diagnostic code"


def register(code: Code) -> None:
    """Add a code from another module (packs, effects, scenarios); codes stay unique."""
    if code.code in CODES and CODES[code.code] != code:
        raise ValueError(f"diagnostic code {code.code} registered twice")
    CODES[code.code] = code
