// The mapping files that go with runs (R8/ProGuard mapping.txt): one renames every run, or
// two, one per group (two release builds name the same classes differently). Which runs
// each renames is chosen beside the runs' own groups; what each run's names became is
// told on its row and, where a mapping renamed nothing, among the runs' warnings.

import { $, element, redrawKeepingFocus } from '../shared/dom.js';
import { count, sizeText } from '../shared/format.js';
import { mappingProblem, proposeMappingGroups } from './run-groups.js';

const MAPPING_WORDS = { both: 'Every run', before: 'Runs before', after: 'Runs after', '': 'Leave out' };
const TOO_MANY = 'At most two mapping files go with runs: one for every run, or one for each group.';

/** `existing` mappings with `files` added (all proposed their groups again): `{mappings, error}`. */
export function addedMappings(existing, files) {
  if (files.length === 0) return { mappings: existing || [], error: '' };
  const known = new Set(existing.map((m) => m.name));
  const added = files.map((file) => ({ file, name: file.webkitRelativePath || file.name, size: file.size }))
    .filter((m) => !known.has(m.name));
  const all = existing.concat(added);
  if (all.length > 2) return { mappings: existing, error: TOO_MANY };
  const groups = proposeMappingGroups(all.map((m) => m.name));
  return { mappings: all.map((m, i) => Object.assign({}, m, { group: groups[i] })), error: '' };
}

/** What a mapping did to one run, for its row: `{status, warning}` (warning '' when none). */
export function mappedWords(mapping, run, answer) {
  const classes = answer.report.classes.mapped;
  if (classes === 0) {
    return { status: 'no name renamed by ' + mapping.name,
      warning: mapping.name + ' renamed no class of ' + run.name + ': is it the mapping of the build that recorded it?' };
  }
  const signs = answer.report.warnings.length ? ' (' + answer.report.warnings.join('; ') + ')' : '';
  return { status: 'names from ' + mapping.name + ' (' + count(classes) + (classes === 1 ? ' class)' : ' classes)'),
    warning: signs ? run.name + ' with ' + mapping.name + signs : '' };
}

/** The mapping files' rows, each with the runs it renames; `onGroup(index, group)` on a change. */
export function renderMappings(mappings, reading, onGroup) {
  $('runs-mappings').hidden = mappings.length === 0;
  redrawKeepingFocus($('runs-mapping-rows'), () => $('runs-mapping-rows').replaceChildren(...mappings.map((m, i) => {
    const select = element('select', { 'aria-label': 'Runs renamed by ' + m.name, disabled: reading ? '' : null,
      onchange: (event) => onGroup(i, event.target.value) },
    ...Object.entries(MAPPING_WORDS).map(([value, text]) => element('option', { value, text })));
    select.value = m.group;
    return element('tr', {},
      element('th', { scope: 'row', class: 'name', text: m.name }),
      element('td', {}, select),
      element('td', { class: 'n', text: sizeText(m.size) }),
      element('td', { class: 'muted', text: m.group ? '' : 'Not applied' }));
  })));
  return mappingProblem(mappings.filter((m) => m.group));
}
