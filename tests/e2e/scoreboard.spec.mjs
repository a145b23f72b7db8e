// The Scoreboard (issue 44): thirty files of a class load into one table with the right counts;
// the files that cannot join are each said, in the page's language; the table sorts both ways;
// a cell opens its run; the exported page works from file:// with no request.
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { test, expect, openPage, screenshot } from './fixtures.mjs';
import { classFiles, results, QUESTIONS } from '../node/class-files.mjs';

const SAID = {
  en: ['damaged.json: not a trace or comparison', 'other-list.json: another question list', 'student-01-again.json: the same file as student-01.json', 'newer.json: written in format version 2'],
  zh: ['damaged.json：不是本页能读取', 'other-list.json：是另一份问题列表', 'student-01-again.json：与 student-01.json 是同一个文件', 'newer.json：文件格式版本为 2'],
};

for (const lang of ['en', 'zh']) {
  for (const [width, height] of [[1366, 768], [390, 844]]) {
    test(`thirty files in one table, sorted both ways, a cell opens its run, the page exports (${lang}, ${width}x${height})`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await openPage(page, { demo: '1', lang });
      await page.locator('#scoreboard-panel > summary').click();
      const { files, good } = classFiles();
      await page.getByTestId('scoreboard-files').setInputFiles(files.map(({ name, text }) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) })));

      const table = page.getByTestId('scoreboard-table');
      await expect(table.getByTestId('scoreboard-column')).toHaveCount(good);
      await expect(table.getByTestId('scoreboard-row')).toHaveCount(2);
      const want = [...Array(good).keys()].map(results);
      const right = (r) => r.filter((x) => x === 'right').length;
      await expect(table.getByTestId('column-count')).toHaveText(want.map((r) => `${right(r)}/2`));
      await expect(table.getByTestId('question-count')).toHaveText([0, 1].map((q) => `${want.filter((r) => r[q] === 'right').length}/${good}`));
      const problems = page.getByTestId('scoreboard-problems').locator('li');
      await expect(problems).toHaveCount(4);
      for (const [i, text] of SAID[lang].entries()) await expect(problems.nth(i)).toContainText(text);
      await expect(table.getByTestId('scoreboard-column').first()).toContainText('Student 1');
      await table.scrollIntoViewIfNeeded();
      await screenshot(page, `scoreboard-${lang}-${width}`);

      // Student 4 got the first question wrong and the second right: sorted by that column,
      // the second question comes first; once more, the other way.
      const questions = table.getByTestId('sort-question');
      await table.getByTestId('sort-column').nth(3).click();
      await expect(questions).toHaveText([QUESTIONS[1].question, QUESTIONS[0].question]);
      await expect(table.getByTestId('scoreboard-column').nth(3)).toHaveAttribute('aria-sort', 'ascending');
      await table.getByTestId('sort-column').nth(3).click();
      await expect(questions).toHaveText([QUESTIONS[0].question, QUESTIONS[1].question]);
      // By the second question: right first (students 1, 4, 7, …), then no answer last; reversed.
      await table.getByTestId('sort-question').filter({ hasText: QUESTIONS[1].question }).click();
      const order = [...Array(good).keys()].sort((a, b) => ['right', 'wrong', 'none'].indexOf(want[a][1]) - ['right', 'wrong', 'none'].indexOf(want[b][1]) || a - b);
      await expect(table.getByTestId('sort-column')).toHaveText(order.map((i) => `Student ${i + 1}`));
      await table.getByTestId('sort-question').filter({ hasText: QUESTIONS[1].question }).click();
      await expect(table.getByTestId('sort-column').first()).not.toHaveText('Student 1');

      // A cell opens that run's cards beside (or under) the table.
      const cell = table.getByTestId('scoreboard-row').filter({ hasText: QUESTIONS[0].question }).getByTestId('scoreboard-cell').first().locator('button');
      await cell.click();
      const run = page.getByTestId('scoreboard-run');
      await expect(run).toBeVisible();
      await expect(run.getByTestId('step-card')).toHaveCount(2);
      await expect(run.getByTestId('final-answer')).toContainText(/7006652|12/);
      await run.scrollIntoViewIfNeeded();
      await screenshot(page, `scoreboard-run-${lang}-${width}`);

      // The exported page: the same table, from disk, with no request.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('scoreboard-export').click()]);
      const path = test.info().outputPath('reactloop-scoreboard.html');
      await writeFile(path, await readFile(await download.path(), 'utf8'));
      const viewer = await page.context().newPage();
      const requests = [];
      viewer.on('request', (r) => requests.push(r.url()));
      await viewer.goto(pathToFileURL(path).href);
      await expect(viewer.locator('thead th')).toHaveCount(good + 2);
      await expect(viewer.locator('tbody tr')).toHaveCount(2);
      await expect(viewer.locator('li')).toHaveCount(4);
      await expect(viewer.locator('script')).toHaveCount(0);
      expect(requests).toEqual([pathToFileURL(path).href]);
      await viewer.close();
    });
  }
}
