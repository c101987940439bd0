package htmlpage

import "html/template"

// pageTmpl is the page. Everything is inline: the page is opened from a
// file, often on a machine without network access.
var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #fff; display: grid; grid-template-columns: 22rem 1fr; height: 100vh; }
header { grid-column: 1 / 3; padding: .6rem 1rem; border-bottom: 1px solid #ddd; background: #f7f7f9; }
header h1 { font-size: 1.05rem; margin: 0 0 .4rem 0; }
header pre { margin: 0; font-size: 12.5px; white-space: pre-wrap; }
nav { overflow: auto; border-right: 1px solid #ddd; padding: .5rem; }
nav a { display: block; padding: .35rem .5rem; border-radius: 4px; color: inherit; text-decoration: none; border-left: 4px solid transparent; }
nav a:hover, nav a.current { background: #eef; }
nav a small { display: block; color: #555; white-space: pre-wrap; }
main { overflow: auto; }
.bar { position: sticky; top: 0; background: #fff; padding: .4rem 1rem; border-bottom: 1px solid #eee; }
.file pre { margin: 0; font: 13px/1.45 ui-monospace, Menlo, Consolas, monospace; }
.file .ln { display: inline-block; width: 4em; text-align: right; margin-right: 1em; color: #999; user-select: none; }
.file .src { display: block; padding: 0 1rem; white-space: pre; }
.mark { --c: 255, 149, 0; background: rgba(var(--c), calc(var(--share) * .45)); }
.mark.hole { --c: 220, 38, 38; }
.mark.cut { --c: 120, 120, 120; }
.mark.wait { --c: 37, 99, 235; }
.mark.cause { --c: 16, 185, 129; }
a.parted { border-left-color: rgb(255, 149, 0); } a.hole { border-left-color: rgb(220, 38, 38); }
a.cut { border-left-color: rgb(120, 120, 120); } a.wait { border-left-color: rgb(37, 99, 235); }
.note { display: block; margin: .1rem 0 .4rem 6em; padding: .3rem .6rem; border-left: 3px solid #aaa; background: #fafafa; font: 12.5px/1.4 system-ui, sans-serif; white-space: pre-wrap; }
.missing { padding: .5rem 1rem; color: #a00; }
:target .src, .src.flash { outline: 2px solid #6366f1; }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<pre id="summary">{{range .Summary}}{{.}}
{{end}}</pre>
</header>
<nav id="groups">
{{range .Groups}}<a href="#{{.Anchor}}" class="{{.Class}}" data-group="{{.ID}}" data-pos="{{.File}}:{{.Line}}">{{.Title}}{{if .Detail}}<small>{{range .Detail}}{{.}}
{{end}}</small>{{end}}</a>
{{else}}<p>Nothing to show.</p>
{{end}}</nav>
<main>
<div class="bar"><label>file <select id="files">{{range .Files}}<option value="{{.Index}}">{{.Name}} ({{.Marked}} marked)</option>{{end}}</select></label></div>
{{range .Files}}<div class="file" id="file{{.Index}}" data-file="{{.Name}}">
{{if .Missing}}<p class="missing">{{.Name}}: source not found (run divergo from the module, or give -src DIR); only the marked lines are listed.</p>{{end}}<pre>{{range .Lines}}<span class="src {{.Class}}" id="{{.ID}}" data-line="{{.N}}"{{if .Style}} style="{{.Style}}"{{end}}><span class="ln">{{.N}}</span>{{.Text}}</span>{{range .Marks}}<span class="note" data-group="{{.Group}}">{{range .Note}}{{.}}
{{end}}</span>{{end}}{{end}}</pre>
</div>
{{end}}</main>
<script>
(function () {
  "use strict";
  var files = document.querySelectorAll(".file");
  var select = document.getElementById("files");
  function show(i) {
    for (var k = 0; k < files.length; k++) {
      files[k].style.display = k === i ? "" : "none";
    }
    select.value = String(i);
  }
  function go(hash) {
    var m = /^#f(\d+)-L\d+$/.exec(hash || "");
    if (!m) { show(0); return; }
    show(Number(m[1]));
    var el = document.getElementById(hash.slice(1));
    if (el) { el.scrollIntoView({block: "center"}); }
    var links = document.querySelectorAll("nav a");
    for (var k = 0; k < links.length; k++) {
      links[k].classList.toggle("current", links[k].getAttribute("href") === hash);
    }
  }
  select.addEventListener("change", function () { show(Number(select.value)); });
  window.addEventListener("hashchange", function () { go(location.hash); });
  if (files.length > 0) {
    var first = document.querySelector("nav a");
    go(location.hash || (first ? first.getAttribute("href") : ""));
  }
  document.body.setAttribute("data-ready", "true");
})();
</script>
</body>
</html>
`))
