// The search box narrows the page and the navigation tree to the kinds, types and fields
// whose names hold what is typed; "/" focuses it, Escape clears it.
(function () {
  "use strict";
  var search = document.getElementById("search");
  var status = document.getElementById("search-status");
  var menu = document.getElementById("menu");
  var sections = Array.prototype.slice.call(document.querySelectorAll("main section[data-search]"));
  var navItems = Array.prototype.slice.call(document.querySelectorAll("#nav li[data-search]"));
  var navDetails = Array.prototype.slice.call(document.querySelectorAll("#nav details"));
  var wasOpen = navDetails.map(function (d) { return d.open; });
  var navHeadings = Array.prototype.slice.call(document.querySelectorAll("#nav .heading"));
  var blocks = Array.prototype.slice.call(document.querySelectorAll("main .block"));

  function filter() {
    var q = search.value.trim().toLowerCase();
    var matches = function (el) { return el.getAttribute("data-search").indexOf(q) !== -1; };
    var shown = {};
    var counts = { kind: 0, type: 0, field: 0 };
    sections.forEach(function (section) {
      var own = q === "" || matches(section);
      var any = false;
      section.querySelectorAll("[data-search]").forEach(function (item) {
        var hit = q !== "" && matches(item);
        item.hidden = !(own || hit);
        if (hit) { any = true; counts[item.tagName === "TR" ? "field" : "kind"] += 1; }
      });
      section.hidden = !(own || any);
      if (q !== "" && own) { counts[section.classList.contains("type") ? "type" : "kind"] += 1; }
      if (section.id) { shown[section.id] = !section.hidden; }
    });
    blocks.forEach(function (block) {
      block.hidden = q !== "" && !block.querySelector("section[data-search]:not([hidden])");
    });
    navItems.forEach(function (item) {
      var target = item.getAttribute("data-target");
      item.hidden = !(q === "" || matches(item) || (target && shown[target]));
    });
    navHeadings.forEach(function (heading) {
      heading.hidden = !heading.nextElementSibling.querySelector("li:not([hidden])");
    });
    navDetails.forEach(function (details, i) {
      details.open = q === "" ? wasOpen[i] : !!details.querySelector("li[data-search]:not([hidden])");
    });
    if (q === "") {
      status.textContent = "";
    } else {
      var said = [];
      if (counts.kind) { said.push(counts.kind + (counts.kind === 1 ? " kind" : " kinds")); }
      if (counts.type) { said.push(counts.type + (counts.type === 1 ? " type" : " types")); }
      if (counts.field) { said.push(counts.field + (counts.field === 1 ? " field" : " fields")); }
      status.textContent = said.length ? said.join(", ") + " on this page" : "nothing on this page matches";
    }
  }

  search.addEventListener("input", filter);
  search.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { search.value = ""; filter(); search.blur(); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== search) { e.preventDefault(); search.focus(); }
  });
  menu.addEventListener("click", function () {
    var open = document.body.classList.toggle("nav-open");
    menu.setAttribute("aria-expanded", open ? "true" : "false");
  });
  document.getElementById("nav").addEventListener("click", function (e) {
    if (e.target.closest("a")) { document.body.classList.remove("nav-open"); menu.setAttribute("aria-expanded", "false"); }
  });
  if (search.value) { filter(); }
})();
