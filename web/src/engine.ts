/**
 * The rules engine, as the page sees it: typed wrappers over the wasm facade
 * (`crates/gunjin-wasm`). Every rule lives in the engine; this file only parses its JSON answers.
 *
 * The same wrapper runs in the page, in Node (unit tests, via `engineFromBytes`) and later in a
 * Web Worker (the CPU).
 */
import init, * as wasm from './wasm/gunjin_wasm.js';

export type Side = 'sente' | 'gote';
export type Square = string;
export type KindId = string;
export type Outcome = 'attacker' | 'defender' | 'both';

/** An arrangement of one side: square name → kind id. */
export type Arrangement = Readonly<Record<Square, KindId>>;

export interface KindInfo {
  readonly id: KindId;
  readonly ja: string;
  readonly ko: string;
  readonly en: string;
  readonly count: number;
  readonly mobile: boolean;
  readonly occupies: boolean;
}

export interface SquareInfo {
  readonly name: Square;
  /** 0 (a) … 5 (f); an HQ reports column c (2) and covers c and d. */
  readonly col: number;
  /** 1 … 8. */
  readonly row: number;
  readonly hq: boolean;
  /** A bridge end (b4, e4, b5, e5), where no mine or flag may stand. */
  readonly entrance: boolean;
  readonly camp: Side;
}

/** One broken setup rule, with a stable id for the message. */
export interface Violation {
  readonly rule: string;
  readonly square: Square | null;
  readonly kind: KindId | null;
}

export type SwapAnswer =
  | { readonly ok: true; readonly deployment: Arrangement }
  | { readonly ok: false; readonly violation: Violation };

export type WinReason = 'occupation' | 'no_moves' | 'resignation';
export type DrawReason = 'no_battle_limit' | 'no_moves';
export type Status =
  | { readonly state: 'ongoing' }
  | { readonly state: 'won'; readonly winner: Side; readonly reason: WinReason }
  | { readonly state: 'draw'; readonly reason: DrawReason };

export interface Battle {
  readonly square: Square;
  readonly outcome: Outcome;
}

export interface Ply {
  readonly side: Side;
  readonly from: Square;
  readonly to: Square;
  readonly battle: Battle | null;
}

export interface WirePiece {
  readonly side: Side;
  readonly kind?: KindId;
}

/** A player's view (the engine's `WireView`): enemy kinds only once the game is over. */
export interface View {
  readonly side: Side;
  readonly to_move: Side;
  readonly plies_without_battle: number;
  readonly status: Status;
  readonly pieces: Readonly<Record<Square, WirePiece>>;
  readonly removed: {
    readonly own: readonly KindId[];
    readonly enemy_count: number;
  };
  readonly history: readonly Ply[];
}

export interface Destinations {
  readonly moves: readonly Square[];
  readonly attacks: readonly Square[];
}

export interface PlayAnswer {
  readonly ply: Ply;
  readonly status: Status;
}

/** The win/loss table derived from the engine's battle resolution. */
export interface BattleTable {
  readonly attackers: readonly KindId[];
  readonly defenders: readonly KindId[];
  /** `outcomes[i][j]`: attacker `i` against defender `j`. */
  readonly outcomes: readonly (readonly Outcome[])[];
}

/** A game held by the page. */
export interface EngineGame {
  toMove(): Side;
  status(): Status;
  view(side: Side): View;
  destinations(side: Side, from: Square): Destinations;
  legalMoves(): [Square, Square][];
  /** Throws on an illegal move; the game is unchanged then. */
  play(from: Square, to: Square): PlayAnswer;
  resign(side: Side): Status;
  dispose(): void;
}

export interface Engine {
  readonly kinds: readonly KindInfo[];
  readonly squares: readonly SquareInfo[];
  battleTable(): BattleTable;
  autoArrangement(side: Side, seed: number): Arrangement;
  mirror(side: Side, arrangement: Arrangement): Arrangement;
  /** `side`'s arrangement carried to the other side, each piece in the same place as its player sees it. */
  turnAround(side: Side, arrangement: Arrangement): Arrangement;
  swap(side: Side, arrangement: Arrangement, a: Square, b: Square): SwapAnswer;
  validate(side: Side, arrangement: Arrangement): readonly Violation[];
  newGame(sente: Arrangement, gote: Arrangement): EngineGame;
}

function parse<T>(json: string): T {
  return JSON.parse(json) as T;
}

function makeEngine(): Engine {
  const kinds = parse<KindInfo[]>(wasm.kinds());
  const squares = parse<SquareInfo[]>(wasm.squares());
  return {
    kinds,
    squares,
    battleTable: () => parse<BattleTable>(wasm.battleTable()),
    autoArrangement: (side, seed) => parse<Arrangement>(wasm.autoDeployment(side, seed >>> 0)),
    mirror: (side, arr) => parse<Arrangement>(wasm.mirror(side, JSON.stringify(arr))),
    turnAround: (side, arr) => parse<Arrangement>(wasm.turnAround(side, JSON.stringify(arr))),
    swap: (side, arr, a, b) => parse<SwapAnswer>(wasm.swap(side, JSON.stringify(arr), a, b)),
    validate: (side, arr) =>
      parse<{ ok: boolean; violations?: Violation[] }>(wasm.validate(side, JSON.stringify(arr)))
        .violations ?? [],
    newGame: (sente, gote) => {
      const handle = new wasm.GameHandle(JSON.stringify(sente), JSON.stringify(gote));
      return {
        toMove: () => handle.toMove() as Side,
        status: () => parse<Status>(handle.status()),
        view: (side) => parse<View>(handle.view(side)),
        destinations: (side, from) => parse<Destinations>(handle.destinations(side, from)),
        legalMoves: () => parse<[Square, Square][]>(handle.legalMoves()),
        play: (from, to) => parse<PlayAnswer>(handle.play(from, to)),
        resign: (side) => parse<Status>(handle.resign(side)),
        dispose: () => handle.free(),
      };
    },
  };
}

/** Loads the wasm module in a browser page or worker (fetches it next to the glue). */
export async function loadEngine(): Promise<Engine> {
  await init();
  return makeEngine();
}

/** Starts the engine from the wasm file's bytes (Node: unit tests). */
export function engineFromBytes(bytes: BufferSource): Engine {
  wasm.initSync({ module: bytes });
  return makeEngine();
}

/** The other side. */
export function opponent(side: Side): Side {
  return side === 'sente' ? 'gote' : 'sente';
}
