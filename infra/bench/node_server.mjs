// The reference the realtime work is held against (issue #18): Node's socket.io@4 server
// speaking exactly the bench protocol of the floor (infra/bench/bare_server.py), so that
// `make bench` and infra/bench/storm.py can measure ours, the python-socketio floor and the
// implementation people usually pick for this job with the same clients, side by side.
//
// `node infra/bench/node_server.mjs` with PORT (8000), as servers.py starts the floor:
// - `connect` accepts everyone (the auth payload is ignored, as the floor does);
// - `subscribe` {"path"} joins the room `path` and acks {"snapshot": {...}};
// - `update` {"path", "data"} bumps an in-memory version, emits `snapshot`
//   {"path", "exists": true, "data": <data as received>, "version": n} to the room, then
//   acks {"version": n}: push first, then ack, the order of the floor and of our server;
// - `unsubscribe` {"path"} leaves the room (the harness warms the code paths with it);
// - `GET /healthz` answers 200 so that the harness waits for readiness the same way.
// Defaults otherwise (no compression, ping every 25 s), as the Python servers run.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const port = Number(process.env.PORT ?? '8000');
const versions = new Map();

/** Plain HTTP: only the readiness probe the harness polls; socket.io takes /socket.io/. */
function web(request, response) {
  const found = request.url === '/healthz';
  response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
  response.end(found ? '{"status":"ok"}' : '{"error":"not found"}');
}

/** A snapshot in the key order of the Python servers: the bench client recognises a push by
 * its tail, `,"version":n}]`. */
function snapshot(path, exists, data, version) {
  return { path, exists, data, version };
}

/** The bench events of one socket; an ack is only sent when the client asked for one. */
function attach(io, socket) {
  socket.on('subscribe', (payload, ack) => {
    const path = String(payload.path);
    void socket.join(path);
    const version = versions.get(path) ?? 0;
    if (typeof ack === 'function') ack({ snapshot: snapshot(path, version > 0, null, version) });
  });
  socket.on('unsubscribe', (payload, ack) => {
    void socket.leave(String(payload.path));
    if (typeof ack === 'function') ack({ ok: true });
  });
  socket.on('update', (payload, ack) => {
    const path = String(payload.path);
    const version = (versions.get(path) ?? 0) + 1;
    versions.set(path, version);
    io.to(path).emit('snapshot', snapshot(path, true, payload.data, version));
    if (typeof ack === 'function') ack({ version });
  });
}

const http = createServer(web);
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  attach(io, socket);
});
http.listen(port, '127.0.0.1');

// SIGTERM from the harness (servers.stop_process): close the sockets, then leave.
process.on('SIGTERM', () => {
  void io.close();
  process.exit(0);
});
