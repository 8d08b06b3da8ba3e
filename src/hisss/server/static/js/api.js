// The HTTP API of the server (docs/protocol.md): JSON in, JSON out, refusals as ApiError.

export class ApiError extends Error {
  /** `details`: the refusal's other fields (such as the `turn` of a refused record). */
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

async function call(method, path, body, raw = false) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = raw ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null; // an answer that is not JSON (a proxy's error page)
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "server_error", error.message || "", error);
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  options: () => call("GET", "/api/options"),
  games: (limit = 20) => call("GET", `/api/games?limit=${limit}`),
  game: (key) => call("GET", `/api/games/${enc(key)}`),
  create: (spec) => call("POST", "/api/games", spec),
  join: (key, name, seat) =>
    call("POST", `/api/games/${enc(key)}/join`, seat ? { name, seat } : { name }),
  gameStep: (key, n) => call("GET", `/api/games/${enc(key)}/steps/${n}`),
  upload: (text) => call("POST", "/api/replays", text, true),
  replay: (id) => call("GET", `/api/replays/${enc(id)}`),
  replayStep: (id, n) => call("GET", `/api/replays/${enc(id)}/steps/${n}`),
  gameRecordUrl: (key) => `/api/games/${enc(key)}/record`,
  replayRecordUrl: (id) => `/api/replays/${enc(id)}/record`,
};
