// The web table: one person's view of a game, opened over a Telegram chat.
//
// Everything shown comes from the bot's server, which builds it from that person's own view
// (bot/web/web_table.py); every move is a press of the same payload a chat button carries, sent
// with Telegram's signed init data, so the server decides exactly as it does for the chats.
// A move is two taps: a tile, then one of its moves (a play of several tiles: its tiles, then
// the move). The page follows the game through server-sent events and counts down locally.

const tg = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData
  ? window.Telegram.WebApp : null;
const launch = new URLSearchParams(location.hash.slice(1));
const initData = tg ? tg.initData : (launch.get("tgWebAppData") || "");
const signed = new URLSearchParams(initData);
const startParam = signed.get("start_param") || launch.get("tgWebAppStartParam") || "";
const session = /^[sw]\d{1,12}$/.test(startParam) ? startParam.slice(1)
  : (new URLSearchParams(location.search).get("s")
    || new URLSearchParams(location.search).get("w") || "");
const auth = { Authorization: `tma ${initData}` };
const SHOWN_AT_ONCE = 8; // moves listed after one tap before asking for more tiles

const $ = (id) => document.getElementById(id);
let state = null;       // the last table the server sent
let selected = [];      // hand letters picked towards a move
let boardVersion = null;
let boardUrl = null;
let deadline = null;    // [element, before, after, ms since the epoch] per countdown
let busy = false;

// ----- Telegram's theme ---------------------------------------------------------------------

function themeParams() {
  if (tg) return tg.themeParams || {};
  try { return JSON.parse(launch.get("tgWebAppThemeParams") || "{}"); } catch { return {}; }
}

function isDark(colour) {
  const m = /^#?([0-9a-f]{6})$/i.exec(colour || "");
  if (!m) return null;
  const n = parseInt(m[1], 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

function applyTheme() {
  const params = themeParams();
  const root = document.documentElement;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === "string") {
      root.style.setProperty(`--tg-theme-${key.replaceAll("_", "-")}`, value);
    }
  }
  const scheme = tg && tg.colorScheme ? tg.colorScheme === "dark" : isDark(params.bg_color);
  root.classList.toggle("dark", scheme === true);
  root.classList.toggle("light", scheme === false);
}

// ----- talking to the server ----------------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? { headers: auth }
    : { method: "POST", headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(body) };
  const answer = await fetch(`api/${path}`, options);
  if (!answer.ok) {
    let text = `${answer.status}`;
    try { text = (await answer.json()).error || text; } catch { /* not JSON */ }
    const error = new Error(text);
    error.status = answer.status;
    error.retry = Math.max(1, Number(answer.headers.get("Retry-After")) || 1);
    throw error;
  }
  return answer;
}

let loading = null;
let again = false;

const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// Too many requests (429): a note, then the same request once the server's wait is over.
async function patiently(request) {
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (error.status !== 429) throw error;
      say(error.message);
      await pause(error.retry);
    }
  }
}

async function load() {
  if (loading) { again = true; return loading; }
  loading = (async () => {
    do {
      again = false;
      try {
        const next = await patiently(async () => (await api(`table?session=${session}`)).json());
        if (!state || next.version !== state.version || next.status !== state.status) {
          selected = selected.filter(() => state && next.version === state.version);
        }
        state = next;
        render();
        await showBoard();
      } catch (error) {
        if (error.status) { fail(error.message); return; }
        throw error;
      }
    } while (again);
  })();
  try { await loading; } finally { loading = null; }
}

async function showBoard() {
  const img = $("board");
  if (!state.board) { img.hidden = true; return; }
  if (boardVersion === state.version) return;
  const version = state.version;
  const answer = await patiently(() => api(`board?session=${session}&version=${version}`));
  const url = URL.createObjectURL(await answer.blob());
  // Decoded before it is shown, so that the page takes its new height at once.
  const next = new Image();
  next.src = url;
  try { await next.decode(); } catch { /* shown as it comes */ }
  if (state.version !== version) { URL.revokeObjectURL(url); return; }
  const hand = $("hand");
  const kept = !img.hidden && !hand.hidden ? hand.getBoundingClientRect().top : null;
  img.style.minHeight = "";
  img.src = url;
  img.alt = state.words.board;
  img.hidden = false;
  img.dataset.version = String(version);
  if (kept !== null && kept < window.innerHeight) keepTiles(hand, kept, img);
  if (boardUrl) URL.revokeObjectURL(boardUrl);
  boardUrl = url;
  boardVersion = version;
}

// Blank space added below the page (pixels), so that it can scroll as far as `keepTiles` needs.
let room = 0;

// A board of another height moves everything below it: the player's tiles are kept where they
// were on the screen (their top at `kept`), so that a tap meant for one does not land on
// another. The page scrolls by what the board grew, with room added below where it is too
// short; a board shorter than the page can scroll back keeps the height it lacks, its
// picture centred in it. (The first board is shown as it comes: nothing has been tapped.)
function keepTiles(hand, kept, img) {
  const moved = hand.getBoundingClientRect().top - kept;
  if (!moved) return;
  const page = document.documentElement;
  let target = window.scrollY + moved;
  if (target < 0) {
    img.style.minHeight = `${img.getBoundingClientRect().height - target}px`;
    target = 0;
  }
  const natural = document.body.getBoundingClientRect().height - room;
  room = Math.max(0, target + window.innerHeight - natural);
  page.style.setProperty("--room", `${room}px`);
  window.scrollTo(0, target);
}

async function follow() {
  // Server-sent events over fetch, so they carry the same signed header as every request.
  // A stream the server closes to make room says why: for a newer window of the same person
  // this one stops following; for someone else's it tries again much later.
  for (;;) {
    let wait = 1;
    try {
      const answer = await patiently(() => api(`events?session=${session}`));
      online(true);
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of event.split("\n")) {
            if (!line.startsWith("data:")) continue;
            const { version, closed, watching } = JSON.parse(line.slice(5));
            if (watching !== undefined && state) { state.watching = watching; showWatching(); }
            if (closed === "elsewhere") {
              online(true);
              if (state) fail(state.words.elsewhere);
              return;
            }
            if (closed === "crowded") wait = 30 + Math.random() * 30;
            if (closed || version === undefined) continue;
            if (!state || version !== state.version) load();
          }
        }
      }
    } catch (error) {
      if (error.status && error.status !== 503) { fail(error.message); return; }
    }
    online(false);
    await pause(wait);
    load().catch(() => {});
  }
}

async function press(data) {
  if (busy) return;
  busy = true;
  render();
  try {
    const { toast } = await (await api("press", { data })).json();
    selected = [];
    if (toast) say(toast);
    haptic("success");
  } catch (error) {
    say(error.message);
    haptic("error");
  } finally {
    busy = false;
    await load();
  }
}

async function join() {
  try {
    const { toast } = await (await api("join", { session: Number(session) })).json();
    if (toast) say(toast);
  } catch (error) {
    say(error.message);
  }
  await load();
}

// ----- drawing ------------------------------------------------------------------------------

function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

function render() {
  if (!state) return;
  document.body.dataset.version = String(state.version);
  document.body.dataset.status = state.status;
  const title = state.table.before.split("\n")[0];
  $("title").textContent = title;
  document.title = title;
  deadline = [];
  timed($("status"), $("words"), state.table);
  if (state.status === "over") $("status").textContent = state.words.closed;
  $("seats").replaceChildren(...state.seats.map((s) => element("li", {
    className: [s.moving ? "moving" : "", s.you ? "you" : "",
      s.team ? `team team-${s.team.index}` : ""].join(" ").trim(),
  }, [...(s.team ? [element("span", { className: "mark", textContent: s.team.letter })] : []),
    s.name, element("span", { className: "count",
      textContent: s.tiles === null ? "" : `· ${s.tiles}` })])));
  showWatching();
  $("lobby").replaceChildren(...state.buttons.map((b) => element("button", {
    textContent: b.label, disabled: busy || b.enabled === false,
    className: b.tone === "main" || b.tone === "go" ? "" : "plain",
    onclick: () => (b.join ? join() : press(b.data)),
  })));
  renderHand();
  tick();
}

// Someone watching is told so; everyone sees how many watch (the server counts them).
function showWatching() {
  $("watching").textContent = [state.spectator ? state.words.spectator : "", state.watching]
    .filter(Boolean).join(" · ");
}

function renderHand() {
  const hand = state.hand;
  $("hand").hidden = !hand;
  if (!hand) return;
  $("hand-title").textContent = state.words.your_tiles;
  timed($("hand-status"), $("hand-words"), hand.text);
  $("hand-status").classList.toggle("mine", hand.your_turn);
  const playable = new Set(hand.moves.flatMap((m) => m.letters));
  const open = candidates(hand.moves, selected);
  const reachable = new Set(open.flatMap((m) => m.letters));
  $("tiles").replaceChildren(...hand.tiles.map((t) => {
    const picked = selected.includes(t.letter);
    const can = hand.your_turn && playable.has(t.letter);
    const button = element("button", {
      className: ["tile", picked ? "selected" : can ? "playable" : "",
        hand.your_turn && !can ? "dim" : "",
        selected.length && !picked && !reachable.has(t.letter) ? "dim" : ""].join(" ").trim(),
      disabled: !can || busy,
      title: t.face,
      onclick: () => tap(t.letter),
    }, [element("img", { src: t.image, alt: t.face, draggable: false }),
      element("span", { textContent: t.letter })]);
    button.dataset.letter = t.letter;
    button.dataset.face = t.face;
    return button;
  }), ...hand.down.map((t) => {
    // A tile the player laid face down: the board counts it, only they know its face.
    const shown = element("span", { className: "tile down", title: t.label }, [
      element("img", { src: t.image, alt: t.label, draggable: false }),
      element("span", { textContent: "↓" })]);
    shown.dataset.down = t.face;
    return shown;
  }));
  renderMoves(hand, open);
}

function candidates(moves, letters) {
  return moves.filter((m) => letters.every((l) => m.letters.includes(l)));
}

function renderMoves(hand, open) {
  const buttons = [];
  let hint = "";
  if (!hand.your_turn) {
    hint = "";
  } else if (!selected.length) {
    buttons.push(...hand.moves.filter((m) => !m.letters.length));
    hint = hand.moves.some((m) => m.letters.length) ? state.words.tap_tile : "";
  } else if (!open.length) {
    hint = state.words.no_moves;
  } else {
    const exact = open.filter((m) => m.letters.length === selected.length);
    if (open.length <= SHOWN_AT_ONCE) {
      buttons.push(...exact, ...open.filter((m) => m.letters.length !== selected.length));
    } else {
      buttons.push(...exact);
      const fewest = Math.min(...open.filter((m) => m.letters.length > selected.length)
        .map((m) => m.letters.length));
      const more = fewest - selected.length;
      hint = state.words.pick_more[Math.min(more, state.words.pick_more.length - 1)];
    }
  }
  $("hint").textContent = hint;
  const all = [...buttons.map((m) => element("button", {
    textContent: m.label, disabled: busy, onclick: () => press(m.data),
  })), ...hand.controls.map((c) => element("button", {
    textContent: c.label, disabled: busy, onclick: () => press(c.data),
  }))];
  $("moves").replaceChildren(...all);
}

function tap(letter) {
  haptic("light");
  const moves = state.hand.moves;
  if (selected.includes(letter)) {
    selected = selected.filter((l) => l !== letter);
  } else if (candidates(moves, [...selected, letter]).length) {
    selected = [...selected, letter];
  } else {
    selected = [letter];
  }
  renderHand();
}

// A screen's text: its first line is its title (shown once, above); the line with the
// countdown goes in `line`, counting down, and the others in `rest`.
function timed(line, rest, text) {
  const before = text.before.split("\n").slice(1);
  const after = text.after.split("\n");
  if (text.left === null || text.left === undefined) {
    line.textContent = "";
    rest.textContent = [...before, ...after].join("\n").trim();
    return;
  }
  const start = before.pop() || "";
  const end = after.shift() || "";
  rest.textContent = [...before, ...after].join("\n").trim();
  deadline.push([line, start, end, Date.now() + text.left * 1000]);
}

// The time left in the chat's own words and steps ("in 90 s"), which the server sends per
// second (`clock`) and, above the last minutes, per minute (`minutes`).
function clock(left) {
  const { clock: seconds, minutes } = state.words;
  if (left < seconds.length) return seconds[left];
  return minutes[Math.min(Math.ceil(left / 60), minutes.length - 1)];
}

function tick() {
  for (const [node, before, after, at] of deadline || []) {
    const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    node.textContent = before + clock(left) + after;
  }
}

function say(text) {
  const toast = $("toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { toast.hidden = true; }, 3000);
}

function fail(text) {
  const note = $("note");
  note.textContent = text;
  note.hidden = false;
  $("table").hidden = true;
  $("hand").hidden = true;
}

function online(yes) {
  document.body.classList.toggle("offline", !yes);
  if (!yes && state) say(state.words.offline);
}

function haptic(kind) {
  const feedback = tg && tg.HapticFeedback;
  if (!feedback) return;
  if (kind === "light") feedback.impactOccurred("light");
  else feedback.notificationOccurred(kind);
}

// ----- start --------------------------------------------------------------------------------

applyTheme();
if (tg) {
  tg.onEvent("themeChanged", applyTheme);
  tg.ready();
  tg.expand();
}
setInterval(tick, 1000);
if (!initData || !session) {
  const uk = (navigator.language || "").startsWith("uk");
  fail(uk ? "Відкрийте цей стіл з повідомлення гри в Telegram."
    : "Open this table from the game's message in Telegram.");
} else {
  load().then(follow).catch((error) => fail(error.message));
}
