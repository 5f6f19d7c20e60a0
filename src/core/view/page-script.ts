// The viewer page's script (inlined in a <script> element). It only reads data-* attributes and
// toggles classes, `open` and text counts: no markup is ever built from data (no innerHTML), and
// nothing is fetched. Without it the page still shows everything; only the filters need it.
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var rows = all('li.artifact');
  var fateBoxes = all('input[data-filter-fate]');
  var checkBoxes = all('input[data-filter-check]');
  var sections = all('section.transcript');
  var status = document.querySelector('[data-filter-status]');

  function count(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  function apply() {
    var hidden = {};
    var hiding = false;
    fateBoxes.forEach(function (box) {
      if (!box.checked) { hidden[box.getAttribute('data-filter-fate')] = true; hiding = true; }
    });
    var wanted = checkBoxes.filter(function (box) { return box.checked; })
      .map(function (box) { return box.getAttribute('data-filter-check'); });
    var shown = 0;
    rows.forEach(function (row) {
      var ok = !hidden[row.getAttribute('data-fate')];
      if (ok && wanted.length > 0) {
        var checks = (row.getAttribute('data-checks') || '').split(' ').filter(Boolean);
        ok = wanted.some(function (w) { return w === '*' ? checks.length > 0 : checks.indexOf(w) >= 0; });
      }
      row.classList.toggle('is-filtered', !ok);
      if (ok) shown++;
    });
    sections.forEach(function (section) {
      var label = section.querySelector('[data-shown]');
      if (!label) return;
      var mine = all('li.artifact', section);
      var visible = mine.filter(function (row) { return !row.classList.contains('is-filtered'); }).length;
      label.textContent = visible === mine.length ? count(mine.length, 'artifact') : visible + ' of ' + count(mine.length, 'artifact') + ' shown';
    });
    document.body.classList.toggle('is-filtering', hiding || wanted.length > 0);
    if (status) {
      status.textContent = shown === rows.length
        ? 'Showing all ' + count(rows.length, 'artifact') + '.'
        : 'Showing ' + shown + ' of ' + count(rows.length, 'artifact') + '.';
    }
  }

  function setOpen(selector, root, open) {
    all(selector, root).forEach(function (d) { d.open = open; });
  }

  function reveal() {
    var id = location.hash.slice(1);
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    var section = target.closest('section.transcript');
    var box = section ? section.querySelector('details.transcript-box') : null;
    if (box && !box.open) { box.open = true; target.scrollIntoView(); }
  }

  document.addEventListener('change', function (event) {
    var el = event.target;
    if (!(el instanceof HTMLInputElement)) return;
    if (el.hasAttribute('data-filter-fate') || el.hasAttribute('data-filter-check')) apply();
    if (el.hasAttribute('data-sbs-toggle')) {
      var sbs = el.closest('.sbs');
      if (sbs) sbs.classList.toggle('changes-only', el.checked);
    }
  });

  document.addEventListener('click', function (event) {
    var el = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
    if (!el) return;
    var action = el.getAttribute('data-action');
    var section = el.closest('section.transcript');
    if (action === 'reset-filters') {
      fateBoxes.forEach(function (box) { box.checked = true; });
      checkBoxes.forEach(function (box) { box.checked = false; });
      apply();
    } else if (action === 'expand-all') setOpen('details.transcript-box', document, true);
    else if (action === 'collapse-all') setOpen('details.transcript-box', document, false);
    else if (action === 'expand-content' && section) setOpen('li.artifact details.a-content', section, true);
    else if (action === 'collapse-content' && section) setOpen('li.artifact details.a-content', section, false);
  });

  window.addEventListener('hashchange', reveal);
  apply();
  reveal();
})();
`;
