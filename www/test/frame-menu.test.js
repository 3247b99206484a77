import { test } from 'node:test';
import assert from 'node:assert/strict';
import { menuRequest, placeMenu } from '../src/flame/frame-menu.js';

test('a frame\'s menu request is checked: titles as text, a point in the page\'s window', () => {
  const box = { left: 300, top: 120 };
  assert.deepEqual(menuRequest({ titles: ['all (1 µs, 100%)', 'a (1 µs, 100%)'], x: 10, y: '20' }, box),
    { titles: ['all (1 µs, 100%)', 'a (1 µs, 100%)'], left: 310, top: 140 });
  assert.equal(menuRequest({ titles: 'all', x: 1, y: 1 }, box), null);
  assert.equal(menuRequest({ titles: [], x: 1, y: 1 }, box), null);
  assert.equal(menuRequest({ titles: [{ toString: () => 'x' }], x: 1, y: 1 }, box), null);
  assert.equal(menuRequest({ titles: ['a'], x: 'left', y: 1 }, box), null);
  assert.equal(menuRequest({ titles: new Array(5000).fill('a'), x: 1, y: 1 }, box), null);
});

test('a menu opens at its point where it fits, else leftwards or upwards, inside the window', () => {
  const view = { width: 760, height: 900 };
  const size = { width: 300, height: 250 };
  assert.deepEqual(placeMenu({ x: 100, y: 100 }, size, view), { left: 100, top: 100 });
  assert.deepEqual(placeMenu({ x: 700, y: 100 }, size, view), { left: 456, top: 100 }, 'leftwards at the right edge');
  assert.deepEqual(placeMenu({ x: 100, y: 800 }, size, view), { left: 100, top: 550 }, 'above the point near the bottom');
  assert.deepEqual(placeMenu({ x: 100, y: 100 }, { width: 300, height: 1000 }, view), { left: 100, top: 4 }, 'taller than the window: from its top');
  assert.deepEqual(placeMenu({ x: -50, y: 10 }, size, view).left, 4);
});
