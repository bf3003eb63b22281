// Layout checks in the real renderers: rows side by side (bounding boxes),
// one column on mobile, conditional fields that appear and disappear when
// the controlling field changes, and wizard steps. Each check takes the
// page with the form already rendered and returns a list of failures.
import { sleep } from './schema.mjs';

/** An input by its label as JSON Forms shows it ("Label", or "Label *" when required). */
function byLabel(page, label) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*\\*?$`));
}

/** The bounding box of the input labelled `label` (JSON Forms: by label; RJSF: by id). */
async function inputBox(page, renderer, { label, id }) {
  const loc =
    renderer === 'rjsf'
      ? page.locator(`#${id}`)
      : renderer === 'a2ui'
        ? // @a2ui/lit's labels are not associated with their inputs: the input inside the labelled element.
          page.locator('a2ui-basic-textfield').filter({ has: page.getByText(label, { exact: true }) }).locator('input, textarea')
        : byLabel(page, label);
  if (!(await loc.count())) return null;
  return loc.first().boundingBox();
}

/** `a` and `b` sit side by side: same line, `b` to the right of `a`. */
export function sideBySide(a, b) {
  return Math.abs(a.y - b.y) < 12 && b.x >= a.x + a.width - 4;
}

/** `b` sits below `a`. */
export function stacked(a, b) {
  return b.y >= a.y + a.height - 4;
}

/** Checks pairs of fields: [[first, second, 'row'|'column'], ...]. */
export async function checkPlacement(page, renderer, pairs) {
  const failures = [];
  for (const [first, second, how] of pairs) {
    const a = await inputBox(page, renderer, first);
    const b = await inputBox(page, renderer, second);
    if (!a || !b) {
      failures.push(`${first.label} / ${second.label}: input not on screen`);
      continue;
    }
    const ok = how === 'row' ? sideBySide(a, b) : stacked(a, b) && !sideBySide(a, b);
    if (!ok) failures.push(`${first.label} / ${second.label}: expected ${how}, boxes ${JSON.stringify(a)} ${JSON.stringify(b)}`);
  }
  return failures;
}

/** Whether a field labelled `label` (RJSF: id) is visible now. */
export async function visible(page, renderer, { label, id }) {
  const loc = renderer === 'rjsf' ? page.locator(`#${id}`) : byLabel(page, label);
  return (await loc.count()) > 0 && (await loc.first().isVisible());
}

/** Picks `option` in the enum field `label` (JSON Forms: autocomplete combobox; RJSF: native select). */
export async function choose(page, renderer, { label, id }, option) {
  if (renderer === 'rjsf') {
    await page.locator(`#${id}`).selectOption({ label: option });
  } else {
    const box = page.getByRole('combobox', { name: label });
    await box.click();
    await box.fill(option);
    await page.getByRole('option', { name: option, exact: true }).first().click();
  }
  await sleep(200);
}

/** Clicks the radio option `option` (JSON Forms' radio group; RJSF's oneOf selector is a select). */
export async function pick(page, renderer, { label, id }, option) {
  if (renderer === 'rjsf') {
    await page.locator(`#${id}`).selectOption({ label: option });
  } else {
    await page.getByRole('radio', { name: option, exact: true }).check();
  }
  await sleep(200);
}
