// A finished deal, replayed: every step the server worked out from the deal's seed and kept
// moves (bot/web/web_replay.py), stepped through here. The deal is over, so every hand is shown
// face up; the board is the group's picture of each step, fetched as it is shown.

const params = new URLSearchParams(location.search);
const token = params.get("d") || "";
const lang = params.get("lang") || (navigator.language || "en").slice(0, 2);
const query = `d=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`;

const $ = (id) => document.getElementById(id);
let deal = null;   // what the server sent: the title, the steps, the result
let at = 0;        // the step shown
let timer = null;  // set while playing on

function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

function fail(text) {
  const note = $("note");
  note.textContent = text;
  note.hidden = false;
  $("replay").hidden = true;
}

function show(step) {
  at = Math.max(0, Math.min(deal.steps.length - 1, step));
  const shown = deal.steps[at];
  const last = deal.steps.length - 1;
  document.body.dataset.step = String(at);
  $("heading").textContent = shown.heading;
  $("said").textContent = shown.said;
  $("board").src = `api/replay/board?${query}&step=${at}`;
  $("board").alt = shown.said || shown.heading;
  $("words").textContent = shown.board.join("\n");
  $("hands").replaceChildren(...shown.hands.map((hand) => element("li", {}, [
    element("span", { className: "name", textContent: hand.name }),
    element("span", { className: "tiles" }, hand.tiles.map(([a, b]) => element("img", {
      src: `tile/${deal.family}/${a}-${b}.png?h=60`, alt: `${a}:${b}`, title: `${a}:${b}`,
    }))),
  ])));
  $("result").hidden = at !== last;
  $("first").disabled = $("previous").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === last;
  if (at === last) stop();
}

function stop() {
  clearInterval(timer);
  timer = null;
  document.body.dataset.playing = "";
  $("play").textContent = deal.words.play;
}

function play() {
  if (timer) { stop(); return; }
  if (at === deal.steps.length - 1) show(0);
  const seconds = Number($("speed").value) || 1;
  document.body.dataset.playing = "yes";
  $("play").textContent = deal.words.pause;
  timer = setInterval(() => show(at + 1), seconds * 1000);
}

async function start() {
  if (!/^\d{1,12}_\d{1,9}_[0-9a-f]{16}$/.test(token)) {
    fail(lang === "uk" ? "Цю роздачу не переглянути." : "This deal cannot be replayed.");
    return;
  }
  const answer = await fetch(`api/replay?${query}`);
  if (!answer.ok) {
    let text = `${answer.status}`;
    try { text = (await answer.json()).error || text; } catch { /* not JSON */ }
    fail(text);
    return;
  }
  deal = await answer.json();
  document.title = $("title").textContent = deal.title;
  for (const name of ["first", "previous", "next", "last"]) $(name).textContent = deal.words[name];
  $("speed-label").textContent = deal.words.speed;
  $("hands-title").textContent = deal.words.hands;
  $("result").textContent = [deal.words.result, ...deal.result].join("\n");
  $("first").onclick = () => { stop(); show(0); };
  $("previous").onclick = () => { stop(); show(at - 1); };
  $("next").onclick = () => { stop(); show(at + 1); };
  $("last").onclick = () => { stop(); show(deal.steps.length - 1); };
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  document.addEventListener("keydown", (event) => {
    const go = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: deal.steps.length - 1 };
    if (event.key in go) { stop(); show(go[event.key]); }
  });
  $("replay").hidden = false;
  stop();
  show(0);
}

start().catch((error) => fail(String(error.message || error)));
