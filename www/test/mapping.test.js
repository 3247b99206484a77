import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeText } from '../src/trace/mapping.js';
import { methodTitle } from '../src/shared/format.js';
import { tableOrder } from '../src/shared/sort-table.js';

test('the mapping line names the file each open trace took its names from', () => {
  const applied = {
    ui: { file: 0, report: { classes: { mapped: 2 } }, text: 'Names deobfuscated with a mapping: 2 classes and 3 methods mapped.' },
    compare: { file: 1, report: { classes: { mapped: 1 } }, text: 'Names deobfuscated with a mapping: 1 class and 1 method mapped.' },
  };
  const sides = [{ key: 'ui', label: 'Before' }, { key: 'compare', label: 'After' }];
  assert.equal(outcomeText(applied, ['v1.txt', 'v2.txt'], sides),
    'Before: names from v1.txt. See the notes for what was mapped. After: names from v2.txt. ' +
    'Names deobfuscated with a mapping: 1 class and 1 method mapped.');
  // A mapping that named none of a trace's classes gave it no names.
  const none = { ui: { file: 0, report: { classes: { mapped: 0 } }, text: 'No name was changed by a mapping written by R8 1.3.49.' } };
  assert.equal(outcomeText(none, ['m.txt'], [{ key: 'ui', label: 'This trace' }]),
    'This trace: No name was changed by a mapping written by R8 1.3.49.');
  assert.equal(outcomeText({ ui: applied.ui }, ['m.txt'], [{ key: 'ui', label: 'This trace' }]),
    'This trace: names from m.txt. See the notes for what was mapped.');
});

test('a renamed method shows and finds the name the trace gave it', () => {
  const renamed = { name: 'com.example.Player.play', signature: '(I)V', source: 'Player.kt', obfuscated: 'a.b.a' };
  const plain = { name: 'android.os.Looper.loop', signature: '()V', source: null };
  assert.equal(methodTitle(renamed), 'com.example.Player.play (I)V (Player.kt) — obfuscated as a.b.a');
  assert.equal(methodTitle(plain), 'android.os.Looper.loop ()V');
  const cols = [{ id: 'name', text: true, value: (m) => m.name }, { id: 'incl', value: () => 0 }];
  assert.deepEqual(tableOrder([plain, renamed], 'a.b.a', { column: 'incl', descending: true }, cols, 'incl'), [1]);
});
