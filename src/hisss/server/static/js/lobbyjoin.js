// Joining a game by its code or any of its links, watching one, and uploading a record to
// replay (with the reason a refused record names).

import { api } from "./api.js";
import { h } from "./dom.js";
import { field, nextId } from "./forms.js";
import { currentLanguage, errorText, t } from "./i18n.js";
import { prefs, rememberSeat } from "./prefs.js";

/** What each kind of broken record is called (the server's `kind` of a turn's problem). */
const TURN_PROBLEMS = {
  cards: (turn) => t("upload.badCards", { turn }),
  seat: (turn) => t("upload.badSeat", { turn }),
  move: (turn) => t("upload.badMove", { turn }),
  snapshot: (turn) => t("upload.badSnapshot", { turn }),
  over: (turn) => t("upload.badOver", { turn }),
};

/** A number of bytes as megabytes, as the limit is said ("1 MB"). */
export function megabytes(bytes) {
  const n = Math.round((bytes / 1_000_000) * 10) / 10;
  return t("upload.megabytes", { n: n.toLocaleString(currentLanguage()) });
}

/**
 * Why an uploaded record was refused, in the reader's words: the size limit, the place in the
 * text (line and column), or the turn and what is wrong there (the card order, the player, the
 * move, the table, the result). `limit` is the server's largest record, in bytes.
 */
export function uploadProblem(failure, limit = null) {
  if (failure.code === "too_large" && limit) return t("upload.tooLarge", { size: megabytes(limit) });
  if (failure.code !== "bad_record") return errorText(failure);
  const { turn, line, column, kind } = failure.details || {};
  if (kind === "result") return t("upload.badResult");
  if (kind === "setup" || turn === 0) return t("upload.badSetup");
  if (Number.isInteger(turn) && turn > 0) return (TURN_PROBLEMS[kind] || TURN_PROBLEMS.move)(turn);
  if (Number.isInteger(line) && Number.isInteger(column)) return t("upload.badPlace", { line, column });
  if (Number.isInteger(line)) return t("upload.badLine", { line });
  return t("upload.notRecord");
}

/** Methods of the first screen (mixed into LobbyPage). */
export const joinMethods = {
  renderJoin() {
    const codeId = nextId("code");
    const nameId = nextId("jname");
    const code = h("input", {
      id: codeId,
      name: "code",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "QB9H4D",
    });
    const name = h("input", {
      id: nameId,
      name: "name",
      maxlength: 40,
      value: prefs.playerName,
      autocomplete: "nickname",
    });
    const error = h("p", { class: "form-error", role: "alert" });
    this.joinName = name;
    const watch = h(
      "button",
      { type: "button", class: "watch-button", onclick: () => this.watch(code.value, error) },
      t("lobby.watch"),
    );
    return h(
      "form",
      {
        class: "panel join",
        "aria-labelledby": "join-title",
        onsubmit: (event) => {
          event.preventDefault();
          this.join(code.value, name.value, error);
        },
      },
      h("h2", { id: "join-title" }, t("lobby.join")),
      field(t("lobby.codeOrLink"), code, t("lobby.codeHelp")),
      field(t("join.name"), name),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "primary join-button" }, t("join.button")),
        watch,
      ),
      error,
    );
  },

  /** {code, seat, token, join} from a code or any of the game's links. */
  parseTarget(text) {
    const raw = String(text).trim();
    let code = raw;
    let hash = "";
    const match = /\/g\/([A-Za-z0-9]+)(#.*)?/.exec(raw);
    if (match) {
      code = match[1];
      hash = match[2] || "";
    }
    code = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
    const params = new URLSearchParams(hash.slice(1));
    return {
      code,
      seat: Number(params.get("seat")) || null,
      token: params.get("token"),
      join: Number(params.get("join")) || null,
    };
  },

  async join(text, name, error, seat = null) {
    const target = this.parseTarget(text);
    if (!target.code) {
      error.textContent = t("lobby.needCode");
      return;
    }
    if (target.token && target.seat) {
      rememberSeat(target.code, { seat: target.seat, token: target.token });
      location.href = `/g/${target.code}`;
      return;
    }
    prefs.playerName = name.trim();
    try {
      const joined = await api.join(target.code, name.trim() || null, seat || target.join);
      rememberSeat(joined.code, { seat: joined.seat, token: joined.token });
      location.href = `/g/${joined.code}`;
    } catch (failure) {
      if (failure.code === "no_open_seat" || failure.code === "seat_taken") {
        error.textContent = `${errorText(failure)} ${t("lobby.watchInstead")}`;
      } else {
        error.textContent = errorText(failure);
      }
    }
  },

  watch(text, error) {
    const target = this.parseTarget(text);
    if (!target.code) {
      error.textContent = t("lobby.needCode");
      return;
    }
    location.href = `/g/${target.code}`;
  },

  renderUpload() {
    const fileId = nextId("record");
    const file = h("input", {
      type: "file",
      id: fileId,
      accept: ".json,application/json",
      class: "record-file",
    });
    const error = h("p", { class: "form-error", role: "alert" });
    return h(
      "form",
      {
        class: "panel upload",
        "aria-labelledby": "upload-title",
        onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = "";
          const chosen = file.files[0];
          if (!chosen) {
            error.textContent = t("upload.none");
            return;
          }
          const limit = this.options && this.options.limits ? this.options.limits.max_record_bytes : null;
          if (limit && chosen.size > limit) {
            // Said at once, without sending a file the server would refuse.
            error.textContent = t("upload.bad", { reason: t("upload.tooLarge", { size: megabytes(limit) }) });
            return;
          }
          try {
            const stored = await api.upload(await chosen.text());
            location.href = stored.link;
          } catch (failure) {
            error.textContent = t("upload.bad", { reason: uploadProblem(failure, limit) });
          }
        },
      },
      h("h2", { id: "upload-title" }, t("upload.title")),
      field(t("upload.file"), file, t("upload.help")),
      h("button", { type: "submit", class: "upload-button" }, t("upload.button")),
      error,
    );
  },
};
