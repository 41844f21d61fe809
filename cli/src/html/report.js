// Sortable tables, hover values for plot marks, and a completion marker for tests.
(function () {
  "use strict";
  var errors = document.getElementById("js-errors");
  function report(msg) {
    errors.textContent += msg + "\n";
    document.body.setAttribute("data-report-status", "error");
  }
  window.addEventListener("error", function (e) { report("error: " + e.message); });
  try {
    // Sorting: click a header; numbers compare numerically (data-v holds the raw value).
    var tables = document.querySelectorAll("table.sortable");
    tables.forEach(function (table) {
      var heads = table.querySelectorAll("thead th");
      heads.forEach(function (th, col) {
        th.classList.add("sortable");
        th.title = "click to sort";
        th.addEventListener("click", function () {
          var asc = !th.classList.contains("sorted-asc");
          heads.forEach(function (h) { h.classList.remove("sorted-asc", "sorted-desc"); });
          th.classList.add(asc ? "sorted-asc" : "sorted-desc");
          var body = table.tBodies[0];
          var rows = Array.prototype.slice.call(body.rows);
          function key(r) {
            var c = r.cells[col];
            if (!c) return "";
            var v = c.getAttribute("data-v");
            return v !== null ? parseFloat(v) : c.textContent;
          }
          rows.sort(function (a, b) {
            var x = key(a), y = key(b);
            var r = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
            return asc ? r : -r;
          });
          rows.forEach(function (r) { body.appendChild(r); });
        });
      });
    });
    // Hover values: every plot mark carries an SVG <title>; show it next to the pointer too.
    var tip = document.getElementById("tooltip");
    var marks = 0;
    document.querySelectorAll("svg rect, svg circle").forEach(function (el) {
      var t = el.querySelector("title");
      if (!t) return;
      marks++;
      el.addEventListener("mousemove", function (e) {
        tip.textContent = t.textContent;
        tip.style.left = (e.clientX + 12) + "px";
        tip.style.top = (e.clientY + 12) + "px";
        tip.style.display = "block";
      });
      el.addEventListener("mouseleave", function () { tip.style.display = "none"; });
    });
    // Completion marker: every section must have rendered a table, a plot or text.
    var sections = document.querySelectorAll("section[data-section]");
    var empty = [];
    sections.forEach(function (s) {
      if (!s.querySelector("table, svg, dl, pre, p")) empty.push(s.id);
      s.setAttribute("data-rendered", "1");
    });
    if (empty.length) report("empty sections: " + empty.join(", "));
    document.body.setAttribute("data-sections", String(sections.length));
    document.body.setAttribute("data-sortable-tables", String(tables.length));
    document.body.setAttribute("data-plot-marks", String(marks));
    if (document.body.getAttribute("data-report-status") !== "error") {
      document.body.setAttribute("data-report-status", "rendered");
    }
  } catch (e) {
    report("exception: " + e);
  }
})();
