// Search over the notes' titles and bodies: every word must appear; title hits rank first.
// The index (search-index.js) is a script so that pages opened from file:// can load it.
(function () {
  var input = document.getElementById("q"), list = document.getElementById("results"),
      summary = document.getElementById("summary");

  function snippet(text, word) {
    var at = text.toLowerCase().indexOf(word);
    if (at < 0) return text.slice(0, 160);
    var start = Math.max(0, at - 60);
    return (start ? "…" : "") + text.slice(start, start + 160) + (start + 160 < text.length ? "…" : "");
  }

  function run() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) { summary.textContent = ""; return; }
    var hits = window.TETHER_INDEX.map(function (n) {
      var title = n.t.toLowerCase(), body = n.b.toLowerCase(), score = 0;
      for (var i = 0; i < words.length; i++) {
        if (title.indexOf(words[i]) >= 0) score += 3;
        else if (body.indexOf(words[i]) >= 0) score += 1;
        else return null;
      }
      return {n: n, score: score};
    }).filter(Boolean).sort(function (a, b) { return b.score - a.score; });
    summary.textContent = hits.length + (hits.length === 1 ? " note" : " notes") + " for “" + input.value.trim() + "”";
    hits.slice(0, 100).forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a"), k = document.createElement("span"),
          p = document.createElement("p");
      k.className = "kind " + h.n.k; k.textContent = h.n.k;
      a.href = h.n.u; a.textContent = h.n.t;
      p.className = "meta"; p.textContent = snippet(h.n.b, words[0]);
      li.append(k, " ", a);
      if (h.n.s !== "active") li.append(" (" + h.n.s + ")");
      if (h.n.b) li.append(p);
      list.append(li);
    });
  }

  input.value = new URLSearchParams(location.search).get("q") || "";
  input.addEventListener("input", run);
  run();
})();
