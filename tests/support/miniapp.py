"""Telegram's side of a Mini App, for the tests: init data signed as Telegram signs it, and the
launch parameters and `Telegram.WebApp` object a Telegram client gives the page.

The signature follows Telegram's "Validating data received via the Mini App", written here
again from that text rather than imported from the bot, so that a mistake in the bot's check
is not repeated by the tests that check it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import quote, urlencode

from tests.support.fake_telegram import User

THEMES = {
    "light": {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
              "link_color": "#3390ec", "button_color": "#3390ec",
              "button_text_color": "#ffffff", "secondary_bg_color": "#f4f4f5"},
    "dark": {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa",
             "link_color": "#8774e1", "button_color": "#8774e1",
             "button_text_color": "#ffffff", "secondary_bg_color": "#181818"},
}


def init_data(user: User, token: str, *, start: str = "", made: float | None = None,
              forge: bool = False) -> str:
    """What Telegram hands the page of `user` opening the bot's Mini App (`start`: a direct
    link's start parameter); `forge` signs it with a wrong key."""
    fields = {
        "query_id": "AAF" + str(user.id),
        "user": json.dumps({"id": user.id, "first_name": user.first_name,
                            "language_code": user.language_code, "allows_write_to_pm": True},
                           ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(time.time() if made is None else made)),
        "chat_instance": "-4001",
        "chat_type": "supergroup",
    }
    if start:
        fields["start_param"] = start
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    key = hmac.new(b"WebAppData", (token + ("x" if forge else "")).encode(),
                   hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields, quote_via=quote)


def launch_url(base: str, data: str, *, theme: str = "light", start: str = "",
               query: str = "") -> str:
    """The page's address as a Telegram client opens it: the launch parameters after `#`."""
    params = {"tgWebAppData": data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "android",
              "tgWebAppThemeParams": json.dumps(THEMES[theme], separators=(",", ":"))}
    if start:
        params["tgWebAppStartParam"] = start
    return f"{base}{'?' + query if query else ''}#{urlencode(params, quote_via=quote)}"


WEB_APP_STUB = """
// What a Telegram client's telegram-web-app.js gives a page, enough for the web table: the
// launch parameters read from the address, the theme, and the calls the page makes.
(function () {
  const launch = new URLSearchParams(location.hash.slice(1));
  const data = launch.get("tgWebAppData") || "";
  const params = JSON.parse(launch.get("tgWebAppThemeParams") || "{}");
  const unsafe = {};
  for (const [k, v] of new URLSearchParams(data)) {
    try { unsafe[k] = JSON.parse(v); } catch (e) { unsafe[k] = v; }
  }
  const dark = (params.bg_color || "#ffffff").toLowerCase() !== "#ffffff";
  window.__telegramCalls = [];
  const call = (name) => (...args) => window.__telegramCalls.push([name, ...args]);
  window.Telegram = { WebApp: {
    initData: data, initDataUnsafe: unsafe, themeParams: params,
    colorScheme: dark ? "dark" : "light", version: "8.0", platform: "android",
    ready: call("ready"), expand: call("expand"), onEvent: call("onEvent"),
    HapticFeedback: { impactOccurred: call("impact"), notificationOccurred: call("notify") },
  } };
})();
"""
