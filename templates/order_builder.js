/* The order builder of a turn sheet: click cards from the hand into each robot's registers, then send the
   order file by mail or copy it. Everything it knows about the rules comes from the sheet's data (the
   engine's): which cards each robot may use, how many registers it fills, whether programs must be of one
   length. No server, no other file: it works from file://, and without scripts the sheet reads as before. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("builder-data").textContent);
  var programs = {}, reboot = {}, active = null;
  data.robots.forEach(function (robot) {
    programs[robot.name] = [];
    if (active === null && robot.receives) { active = robot.name; }
  });

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function robotNamed(name) { return data.robots.filter(function (r) { return r.name === name; })[0]; }
  function usedBy(card) {
    return Object.keys(programs).filter(function (name) { return programs[name].indexOf(card) >= 0; })[0];
  }

  function problems() {
    var found = [], lengths = [];
    data.robots.forEach(function (robot) {
      if (!robot.receives) { return; }
      var n = programs[robot.name].length;
      lengths.push(n);
      if (n < robot.min) {
        found.push(robot.name + ": " + (robot.min === robot.max ? n + " of " + robot.max + " cards" : "no cards yet"));
      }
    });
    if (data.equal && lengths.some(function (n) { return n !== lengths[0]; })) {
      found.push("every program must have the same length (B4.5)");
    }
    return found;
  }

  function flowLines(prefix, items, suffix) {
    /* A YAML flow list, `prefix[a, b, c]suffix`, over as many lines as it takes to keep each within data.width
       columns (a mail program wraps longer ones): the next lines indented past the key, as YAML reads them. */
    var lines = [], line = prefix + "[";
    items.forEach(function (item, i) {
      var piece = item + (i < items.length - 1 ? "," : "]" + suffix);
      if (i > 0 && (line + " " + piece).length > data.width) {
        lines.push(line);
        line = "    " + piece;
      } else {
        line += (i > 0 ? " " : "") + piece;
      }
    });
    lines.push(items.length ? line : line + "]" + suffix);
    return lines;
  }

  function orderText() {
    var lines = [data.head.replace(/\n$/, ""), "robots:"];
    data.robots.forEach(function (robot) {
      lines = lines.concat(flowLines("  " + robot.key + ": {program: ", programs[robot.name], "}"));
    });
    var rebooting = data.robots.filter(function (r) { return reboot[r.name]; }).map(function (r) { return r.key; });
    if (rebooting.length) { lines = lines.concat(flowLines("reboot: ", rebooting, "")); }
    var option = document.getElementById("builder-option");
    if (option && option.value) { lines.push("option_hp: " + option.value); }
    return lines.join("\n") + "\n";
  }

  function drawRobots() {
    var box = document.getElementById("builder-robots");
    box.textContent = "";
    data.robots.forEach(function (robot) {
      var row = el("div", "builder-robot" + (robot.name === active ? " active" : ""));
      row.setAttribute("data-robot", robot.name);
      var name = el("button", "robot-name", robot.name);
      name.type = "button";
      name.disabled = !robot.receives;
      name.onclick = function () { active = robot.name; draw(); };
      row.appendChild(name);
      for (var n = 1; robot.receives && n <= robot.registers; n += 1) {
        var fused = robot.fused[String(n)];
        var card = programs[robot.name][n - 1];
        var slot = el("button", "register" + (n > robot.free ? " fused" : card ? " filled" : ""),
                      n > robot.free ? (fused || "fused") : (card || String(n)));
        slot.type = "button";
        slot.title = n > robot.free ? "register " + n + " is fused: its card stays" : "register " + n;
        slot.disabled = n > robot.free || !card;
        slot.setAttribute("data-register", String(n));
        if (card) {
          slot.onclick = (function (name, index) {
            return function () { programs[name].splice(index, 1); draw(); };
          })(robot.name, n - 1);
        }
        row.appendChild(slot);
      }
      if (!robot.receives) { row.appendChild(el("span", "note", robot.note)); }
      if (data.reboot) {
        var label = el("label", "reboot"), box2 = el("input");
        box2.type = "checkbox";
        box2.checked = !!reboot[robot.name];
        box2.onchange = function () { reboot[robot.name] = box2.checked; draw(); };
        label.appendChild(box2);
        label.appendChild(document.createTextNode(" reboot next turn"));
        row.appendChild(label);
      }
      box.appendChild(row);
    });
  }

  function drawHand() {
    var box = document.getElementById("builder-hand"), robot = robotNamed(active);
    box.textContent = "";
    Object.keys(data.hands).forEach(function (holder) {
      data.hands[holder].forEach(function (card) {
        var owner = usedBy(card);
        var chip = el("button", "card" + (owner ? " used" : ""), card);
        chip.type = "button";
        chip.setAttribute("data-card", card);
        chip.disabled = !robot || !!owner || robot.usable.indexOf(card) < 0 ||
          programs[robot.name].length >= robot.max;
        chip.onclick = function () { programs[active].push(card); draw(); };
        box.appendChild(chip);
      });
    });
  }

  function mailto(subject, body) {
    return "mailto:" + encodeURIComponent(data.to).replace(/%40/g, "@") + "?subject=" +
      encodeURIComponent(subject) + "&body=" + encodeURIComponent(body.replace(/\n/g, "\r\n"));
  }

  function showLines(box, text) {
    /* each line a block of its own: on a narrow screen a line that wraps hangs under its start, so the lines the
       file has stay apart from those the screen makes (the text, copied or mailed, is the same) */
    box.textContent = "";
    text.replace(/\n$/, "").split("\n").forEach(function (line) { box.appendChild(el("span", "line", line + "\n")); });
  }

  function draw() {
    drawRobots();
    drawHand();
    var text = orderText(), missing = problems();
    showLines(document.getElementById("builder-text"), text);
    document.getElementById("builder-status").textContent =
      missing.length ? "Not complete: " + missing.join("; ") + "." : "Complete: ready to send.";
    // no link until the program is complete: a mail sent before would only be refused
    link(document.getElementById("builder-send"), missing, mailto(data.subject, text));
    link(document.getElementById("builder-preview"), missing,
         mailto("rehearsal: " + data.subject, text + "preview: true\n"));  // answered with the path
  }

  function link(anchor, missing, href) {
    if (missing.length) {
      anchor.removeAttribute("href");
      anchor.setAttribute("aria-disabled", "true");
      anchor.className = "button off";
    } else {
      anchor.href = href;
      anchor.removeAttribute("aria-disabled");
      anchor.className = "button";
    }
  }

  document.getElementById("builder-copy").onclick = function () {
    var text = document.getElementById("builder-text").textContent, status = document.getElementById("builder-copied");
    function done() { status.textContent = "copied"; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { status.textContent = "select the text and copy it"; });
    } else {
      var range = document.createRange();
      range.selectNodeContents(document.getElementById("builder-text"));
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      status.textContent = document.execCommand("copy") ? "copied" : "the text is selected: copy it";
    }
  };
  var option = document.getElementById("builder-option");
  if (option) {
    option.value = data.option_hp === null ? "" : String(data.option_hp);  // the sheet's choice (B11), kept
    option.onchange = draw;
  }
  document.getElementById("builder").hidden = false;
  draw();
})();
