/// The page's style and script, inline: the report loads nothing from anywhere.
enum PageAssets {
    static let style = """
        :root{--text:#222;--muted:#666;--line:#ddd;--band:#f6f7f9}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--text);background:#fff}
        header{padding:16px 24px 8px;border-bottom:1px solid var(--line)}
        h1{font-size:20px;margin:0 0 4px}
        h2{font-size:18px;margin:24px 0 8px;padding-top:12px;border-top:2px solid #0072B2;word-break:break-all}
        h3{font-size:16px;margin:22px 0 8px}
        h4{font-size:14px;margin:16px 0 6px}
        main{padding:0 24px 40px}
        .muted{color:var(--muted);font-weight:normal}
        .name{font-weight:normal}
        nav ol{margin:4px 0;padding-left:20px}
        table{border-collapse:collapse;font-size:13px}
        th,td{text-align:left;vertical-align:top;padding:3px 8px;border-bottom:1px solid var(--line)}
        thead th{background:var(--band);position:sticky;top:0}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        tr.group td{background:#eef3f8;font-weight:600}
        tr.bad td{background:#fdecea}
        .table{overflow-x:auto;max-width:100%}
        table.summary th{width:110px;color:var(--muted);font-weight:normal}
        .plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:10px 18px}
        .plots.small{grid-template-columns:repeat(auto-fill,minmax(340px,1fr))}
        figure{margin:0;min-width:0}
        figcaption{font-weight:600;font-size:13px;margin:0 0 2px}
        svg{display:block;width:100%;height:auto;overflow:visible}
        svg text{font-size:11px;fill:#444;font-family:inherit}
        svg text.axis-title{fill:var(--muted)}
        svg text.mono{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:11px}
        .timeline svg{max-width:1400px}
        ul.legend{list-style:none;margin:2px 0 0;padding:0;font-size:12px;display:flex;flex-wrap:wrap;gap:2px 14px}
        .swatch{display:inline-block;width:14px;height:4px;margin:0 5px 3px 0;vertical-align:middle;border-radius:1px}
        .tick{display:inline-block;width:2px;height:10px;margin:0 5px 0 0;vertical-align:middle}
        .sym{display:inline-block;width:14px;text-align:center;margin-right:3px}
        section.device{margin-bottom:8px}
        #tip{position:fixed;pointer-events:none;background:rgba(255,255,255,.96);border:1px solid #bbb;border-radius:4px;
          padding:4px 8px;font-size:12px;box-shadow:0 1px 4px rgba(0,0,0,.15);white-space:pre;z-index:10}
        """

    static let script = """
        (function () {
          "use strict";
          var errors = [];
          window.addEventListener("error", function (e) { errors.push(String(e.message)); });
          function numbers(text) { return text ? text.split(",").map(Number) : []; }
          function running(list) { var sum = 0; return list.map(function (d) { return sum += d; }); }
          function elapsed(ms) {
            var s = ms / 1000;
            if (Math.abs(s) < 60) return s.toFixed(3) + " s";
            var m = Math.floor(s / 60), rest = (s - 60 * m).toFixed(3);
            if (m < 60) return m + " min " + rest + " s";
            return Math.floor(m / 60) + " h " + (m % 60) + " min " + rest + " s";
          }
          var tip = document.getElementById("tip");
          function plotSeries(svg) {
            return Array.prototype.map.call(svg.querySelectorAll("g.series"), function (g) {
              return { name: g.getAttribute("data-name"), t: running(numbers(g.getAttribute("data-t"))),
                v: numbers(g.getAttribute("data-v")), f: running(numbers(g.getAttribute("data-f"))),
                colour: g.getAttribute("stroke") };
            });
          }
          function nearest(t, ms) {
            var lo = 0, hi = t.length - 1;
            while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (t[mid] < ms) lo = mid; else hi = mid; }
            return Math.abs(t[lo] - ms) <= Math.abs(t[hi] - ms) ? lo : hi;
          }
          function hover(svg) {
            var box = svg.getAttribute("data-box").split(" ").map(Number);
            var xd = svg.getAttribute("data-x").split(" ").map(Number);
            var yd = svg.getAttribute("data-y").split(" ").map(Number);
            var unit = svg.getAttribute("data-unit") || "";
            var section = svg.closest("section.capture");
            var start = section ? Number(section.getAttribute("data-start")) : 0;
            var field = svg.closest("figure").getAttribute("data-field");
            var series = plotSeries(svg);
            svg.insertAdjacentHTML("beforeend", '<circle class="hover" r="4" fill="none" stroke-width="2" visibility="hidden"/>');
            var dot = svg.lastElementChild;
            function px(ms) { return box[0] + (ms - xd[0]) / (xd[1] - xd[0]) * box[2]; }
            function py(v) { return box[1] + (1 - (v - yd[0]) / (yd[1] - yd[0])) * box[3]; }
            svg.addEventListener("mousemove", function (event) {
              var r = svg.getBoundingClientRect(), scale = r.width / svg.viewBox.baseVal.width;
              var x = (event.clientX - r.left) / scale, y = (event.clientY - r.top) / scale;
              var ms = xd[0] + (x - box[0]) / box[2] * (xd[1] - xd[0]);
              var best = null, bestDistance = Infinity;
              series.forEach(function (s) {
                if (!s.t.length) return;
                var i = nearest(s.t, ms), dx = px(s.t[i]) - x, dy = py(s.v[i]) - y, d = dx * dx + dy * dy;
                if (d < bestDistance) { bestDistance = d; best = { s: s, i: i }; }
              });
              if (!best || bestDistance > 60 * 60) { dot.setAttribute("visibility", "hidden"); tip.hidden = true; return; }
              var s = best.s, i = best.i;
              dot.setAttribute("cx", px(s.t[i]));
              dot.setAttribute("cy", py(s.v[i]));
              dot.setAttribute("stroke", s.colour);
              dot.setAttribute("visibility", "visible");
              var clock = new Date(start + s.t[i]).toISOString().slice(11, 23) + " UTC";
              tip.textContent = s.name + "\\nframe " + s.f[i] + "\\n" + elapsed(s.t[i]) + " (" + clock + ")\\n" +
                field + " = " + s.v[i] + (unit ? " " + unit : "");
              tip.hidden = false;
              var left = event.clientX + 14, top = event.clientY + 14;
              if (left + tip.offsetWidth > window.innerWidth - 4) left = event.clientX - tip.offsetWidth - 14;
              if (top + tip.offsetHeight > window.innerHeight - 4) top = event.clientY - tip.offsetHeight - 14;
              tip.style.left = left + "px";
              tip.style.top = top + "px";
            });
            svg.addEventListener("mouseleave", function () { dot.setAttribute("visibility", "hidden"); tip.hidden = true; });
          }
          // Moves the pointer onto the first point of the first plot and reads the tooltip back.
          function hoverCheck() {
            var svg = document.querySelector("figure.plot svg"), g = svg && svg.querySelector("g.series");
            if (!g) return "";
            var box = svg.getAttribute("data-box").split(" ").map(Number);
            var xd = svg.getAttribute("data-x").split(" ").map(Number);
            var yd = svg.getAttribute("data-y").split(" ").map(Number);
            var t = running(numbers(g.getAttribute("data-t"))), v = numbers(g.getAttribute("data-v"));
            var r = svg.getBoundingClientRect(), scale = r.width / svg.viewBox.baseVal.width;
            var x = box[0] + (t[0] - xd[0]) / (xd[1] - xd[0]) * box[2], y = box[1] + (1 - (v[0] - yd[0]) / (yd[1] - yd[0])) * box[3];
            svg.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + x * scale, clientY: r.top + y * scale }));
            var text = tip.hidden ? "" : tip.textContent;
            svg.dispatchEvent(new MouseEvent("mouseleave"));
            return text.replace(/\\n/g, " | ");
          }
          // What a test (or a person) can read back: how many plots, series and points there are,
          // and whatever looked wrong.
          function check() {
            var problems = [], series = 0, points = 0;
            var plots = document.querySelectorAll("figure.plot");
            plots.forEach(function (figure) {
              var name = figure.getAttribute("data-device") + " " + figure.getAttribute("data-field");
              var groups = figure.querySelectorAll("g.series");
              if (!groups.length) problems.push(name + ": no series");
              groups.forEach(function (g) {
                series += 1;
                var t = numbers(g.getAttribute("data-t")), v = numbers(g.getAttribute("data-v")), f = numbers(g.getAttribute("data-f"));
                points += t.length;
                if (!t.length) problems.push(name + ": a series without points");
                if (t.length !== v.length || t.length !== f.length) problems.push(name + ": data of different lengths");
                if (v.some(isNaN) || t.some(isNaN) || f.some(isNaN)) problems.push(name + ": a value that is not a number");
                var line = g.querySelector("path.line");
                if (!line || !line.getAttribute("d")) { problems.push(name + ": no line"); return; }
                var b = g.getBBox();
                if (t.length > 1 && b.width === 0 && b.height === 0) problems.push(name + ": nothing drawn");
              });
            });
            var out = document.getElementById("self-check");
            out.setAttribute("data-hover", hoverCheck());
            out.setAttribute("data-plots", plots.length);
            out.setAttribute("data-reading-plots", document.querySelectorAll("figure.plot.reading").length);
            out.setAttribute("data-rssi-plots", document.querySelectorAll("figure.plot.rssi").length);
            out.setAttribute("data-histograms", document.querySelectorAll("figure.histogram").length);
            out.setAttribute("data-timelines", document.querySelectorAll("figure.timeline").length);
            out.setAttribute("data-series", series);
            out.setAttribute("data-points", points);
            out.setAttribute("data-height", Math.ceil(document.documentElement.scrollHeight));
            out.setAttribute("data-problems", problems.concat(errors).join("; "));
            out.setAttribute("data-ok", problems.length === 0 && errors.length === 0 ? "true" : "false");
          }
          try {
            document.querySelectorAll("figure.plot svg").forEach(hover);
          } catch (e) {
            errors.push("hover: " + e.message);
          }
          try { check(); } catch (e) {
            var out = document.getElementById("self-check");
            out.setAttribute("data-ok", "false");
            out.setAttribute("data-problems", "self-check: " + e.message);
          }
        })();
        """
}
