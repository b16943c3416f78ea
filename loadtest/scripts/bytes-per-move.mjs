// Bytes per move (docs/operations.md, "Bytes per move"): plays hot-seat games of seeded random
// legal moves against a running `papan serve` and prints the size of the WebSocket frame that
// answers each move (the `event` every subscriber of the game receives: after the first full
// state, a delta) at the plies asked for.
// A game that ends before the last ply asked for is dropped and the next seed is tried.
//   node --experimental-websocket loadtest/scripts/bytes-per-move.mjs ws://127.0.0.1:8080/ws [variant] [plies]
// (Node 20: the flag enables the WebSocket client; Node 22 has it by default.)
const url = process.argv[2] ?? "ws://127.0.0.1:8080/ws";
const variant = process.argv[3] ?? "international";
const plies = (process.argv[4] ?? "10,150").split(",").map(Number);
const last = Math.max(...plies);

function rng(seed) {  // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function play(seed) {
  return new Promise((resolve, reject) => {
    const random = rng(seed);
    const ws = new WebSocket(url);
    const sizes = new Map();
    let state = null;  // the full state, kept from the events' deltas (docs/protocol.md)
    ws.onerror = (e) => reject(new Error(`websocket: ${e.message ?? e}`));
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", name: "Bytes" }));
    const move = (state) => {
      const legal = state.legal_moves;
      const m = legal[Math.floor(random() * legal.length)];
      ws.send(JSON.stringify({ type: "move", game: state.id, ply: state.ply, path: m.path }));
    };
    ws.onmessage = (ev) => {
      const bytes = Buffer.byteLength(ev.data);
      const msg = JSON.parse(ev.data);
      if (msg.type === "welcome") {
        ws.send(JSON.stringify({ type: "create", mode: "hotseat", variant }));
      } else if (msg.type === "state" && msg.state.ply === 0) {
        state = msg.state;
        move(state);
      } else if (msg.type === "event") {
        if (msg.state) {
          state = msg.state;
        } else {
          const d = msg.delta;
          const moves = state.moves.slice(0, d.moves_keep ?? state.moves.length).concat(d.moves_add ?? []);
          state = { ...state, ...d, moves };
          delete state.moves_keep;
          delete state.moves_add;
        }
        const s = state;
        sizes.set(s.ply, bytes);
        if (s.ply >= last || s.status === "over") {
          ws.close();
          resolve(s.ply >= last ? sizes : null);
        } else {
          move(s);
        }
      } else if (msg.type === "error") {
        ws.close();
        reject(new Error(JSON.stringify(msg)));
      }
    };
  });
}

for (let seed = 1; seed <= 200; ++seed) {
  const sizes = await play(seed);
  if (sizes) {
    console.log(JSON.stringify({ variant, seed, bytes_per_move: Object.fromEntries(
      plies.map((p) => [p, sizes.get(p)])) }));
    process.exit(0);
  }
}
console.error(`no game of ${variant} reached ply ${last} in 200 seeds`);
process.exit(1);
