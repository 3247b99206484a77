import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextTool, stopIndex } from '../src/shared/toolbar-keys.js';

test('arrows move between a toolbar\'s buttons and wrap at its ends; Home and End jump', () => {
  assert.equal(nextTool('ArrowRight', 0, 4), 1);
  assert.equal(nextTool('ArrowRight', 3, 4), 0);
  assert.equal(nextTool('ArrowLeft', 0, 4), 3);
  assert.equal(nextTool('ArrowLeft', 2, 4), 1);
  assert.equal(nextTool('Home', 2, 4), 0);
  assert.equal(nextTool('End', 1, 4), 3);
  assert.equal(nextTool('ArrowDown', 1, 4), null);
  assert.equal(nextTool('ArrowRight', 0, 0), null);
});

test('the Tab stop stays on the button last used while it can take focus, else the first that can', () => {
  assert.equal(stopIndex([true, true, true], 2), 2);
  assert.equal(stopIndex([true, true, false], 2), 0);
  assert.equal(stopIndex([false, false, true], -1), 2);
  assert.equal(stopIndex([false, true, true], 0), 1);
  assert.equal(stopIndex([false, false], 1), -1);
});
