import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Products } from '../src/engine/products.js';

// An engine that records what it is asked and answers at once.
function fakeEngine() {
  const asked = [];
  return {
    asked,
    range: async (key, range) => { asked.push(['range', range]); },
    svg: async (key, thread, clock, theme, view) => {
      asked.push(['svg', thread, view]);
      if (view.includes('refused')) throw Object.assign(new Error('no frame is named "refused"'), { kind: 'view' });
      return '<svg>' + view + '</svg>';
    },
    folded: async (key, clock, tid, view) => { asked.push(['folded', clock, view]); return 'a;b 1'; },
  };
}

test('graphs are drawn in the store\'s view, each made once per view', async () => {
  const engine = fakeEngine();
  let view = '';
  const products = new Products(engine, 'ui', () => null, () => view);
  assert.equal(await products.svg(0, 'wall', 'light'), '<svg></svg>');
  view = '{"transforms":[{"merge":"A"}],"invert":false}';
  assert.equal(await products.svg(0, 'wall', 'light'), '<svg>' + view + '</svg>');
  view = '';
  assert.equal(await products.svg(0, 'wall', 'light'), '<svg></svg>', 'undone: the graph drawn before');
  assert.deepEqual(engine.asked.filter((a) => a[0] === 'svg').map((a) => a[2]), ['', '{"transforms":[{"merge":"A"}],"invert":false}']);
  view = '{"transforms":[],"invert":true}';
  await products.folded('cpu');
  assert.deepEqual(engine.asked.at(-1), ['folded', 'cpu', view], 'the download is in the view too');
});

test('a refused view is not cached: asked again, it is refused again', async () => {
  const engine = fakeEngine();
  const products = new Products(engine, 'ui', () => null, () => '{"refused":1}');
  for (let i = 0; i < 2; i++) {
    await assert.rejects(products.svg(0, 'wall', 'light'), (error) => error.kind === 'view');
  }
  assert.equal(engine.asked.filter((a) => a[0] === 'svg').length, 2);
});

test('a new range is handed over before the graph in the view is drawn', async () => {
  const engine = fakeEngine();
  let range = null;
  const products = new Products(engine, 'ui', () => range, () => 'V');
  await products.svg(1, 'wall', 'dark');
  range = { from: 1, to: 2 };
  await products.svg(1, 'wall', 'dark');
  assert.deepEqual(engine.asked, [['svg', 1, 'V'], ['range', range], ['svg', 1, 'V']]);
});

test('products kept are bounded: the oldest made goes first', async () => {
  const engine = fakeEngine();
  let view = '';
  const products = new Products(engine, 'ui', () => null, () => view);
  for (let i = 0; i < 60; i++) {
    view = 'V' + i;
    await products.svg(0, 'wall', 'light');
  }
  assert.equal(products.cache.size, 48);
  view = 'V59';
  await products.svg(0, 'wall', 'light');
  view = 'V0';
  await products.svg(0, 'wall', 'light');
  assert.deepEqual(engine.asked.slice(-1), [['svg', 0, 'V0']], 'the oldest was made again, the newest was not');
  assert.equal(engine.asked.length, 61);
});
