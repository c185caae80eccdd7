// Types of src/index.js.
import type { Client, Transport } from "@connectrpc/connect";
import type { GameRecord } from "../gen/uckers/v1/game_pb.js";
import type {
  BestMoveResponse, Engine, GameResult, JudgePlayResponse, PlayEffects, Position, Throw,
} from "../gen/uckers/v1/engine_pb.js";

export { Engine } from "../gen/uckers/v1/engine_pb.js";
export { Code, ConnectError } from "@connectrpc/connect";

/** [die1, die2], "63" or { die1, die2 }. */
export type Dice = [number, number] | string | { die1: number; die2: number };
export type Mark = "none" | "doubtful" | "bad" | "verybad";

export declare function position(ufen: string): { kind: { case: "ufen"; value: string } };
export declare function toThrow(dice: Dice): { die1: number; die2: number };
export declare function dealtThrow(secretHex: string, clientSeed: string, index: number, clientValueHex: string): Promise<{ die1: number; die2: number }>;

export interface CallOptions { signal?: AbortSignal; timeoutMs?: number }

export interface DealtGame {
  commitment: string;
  throwAt(index: number, play?: string): Promise<{ die1: number; die2: number }>;
  reveal(play?: string, recordText?: string): Promise<{ secret: string; record: GameRecord | undefined; verifiedThrows: number }>;
}

export interface EngineClient {
  rpc: Client<typeof Engine>;
  startGame(rules?: string): Promise<{ ufen: string; rules: string; switches: string; result: GameResult | undefined }>;
  bestMove(ufen: string, dice: Dice, options?: { level?: string; movetimeMs?: number; depth?: number; rules?: string; multipv?: number } & CallOptions):
    Promise<{ play: string; ufenAfter: string; winProbability: number; response: BestMoveResponse }>;
  legalPlays(ufen: string, dice: Dice, options?: { rules?: string }): Promise<{ play: string; ufen: string; effects: PlayEffects | undefined }[]>;
  applyPlay(ufen: string, dice: Dice, play: string, options?: { rules?: string }):
    Promise<{ play: string; ufen: string; finished: boolean; result: GameResult | undefined }>;
  judgePlay(ufen: string, dice: Dice, play: string, options?: { level?: string; rules?: string }):
    Promise<{ mark: Mark; equityLost: number; bestPlay: string; response: JudgePlayResponse }>;
  dealtGame(clientSeed: string, options?: { rules?: string }): Promise<DealtGame>;
}

export declare function createEngineClient(transport: Transport): EngineClient;
export type { Position, Throw };
