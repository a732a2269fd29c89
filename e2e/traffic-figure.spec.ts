// The traffic figure's request, hop by hop: once the client is answered, the panel shows its last
// request from the client through KUBE-SERVICES, the KUBE-SVC rule that chose the endpoint and the
// KUBE-SEP chain's DNAT to the pod that answered, and marks those three lines in node-1's rules;
// the strip says why its first requests failed, and the nftables tab marks the lines of that mode.
import { BASE, expect, test } from './fixtures';

test('the last request is drawn hop by hop, and the rules that decided it are marked', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${BASE}/networking/`);
  const fig = page.getByTestId('figure-traffic');
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
  const path = fig.getByTestId('traffic-path');
  const next = fig.getByRole('button', { name: 'Next event' });
  for (
    let i = 0;
    i < 60 && !/answers$/.test(((await path.count()) ? await path.locator('li').last().textContent() : '') ?? '');
    i++
  ) {
    const step = await fig.getAttribute('data-step');
    await next.click();
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  const hops = path.locator('li');
  await expect(hops.first()).toContainText(/^client on node-1 connects to 10\.\d+\.\d+\.\d+:80$/);
  await expect(hops.nth(1)).toContainText('KUBE-SERVICES matches');
  await expect(hops.nth(2)).toContainText(/^KUBE-SVC-[A-Z0-9]{16} /);
  await expect(hops.nth(3)).toContainText(/^KUBE-SEP-[A-Z0-9]{16} DNAT to 10\.244\.\d\.\d+:80$/);
  await expect(hops.last()).toContainText(/web-[a-z0-9]+-[a-z0-9]{5} on node-\d answers$/);
  const marked = fig.getByTestId('traffic-rules').locator('mark');
  await expect(marked).toHaveCount(3);
  const dnat = /DNAT to (\S+)$/.exec((await hops.nth(3).textContent()) ?? '')![1];
  await expect(marked.filter({ hasText: `--to-destination ${dnat}` })).toHaveCount(1);
  await expect(marked.filter({ hasText: `"default/web -> ${dnat}"` })).toHaveCount(1);
  // The strip says why its first requests failed: web had no ready endpoint, and the rules rejected them.
  await expect(fig.getByTestId('traffic-legend')).toContainText(/✗ \d+ refused while web had no ready endpoint/);
  // The same sync as nftables mode writes it: one numgen map, its three lines marked; the tabs work by keyboard.
  const ipt = fig.getByTestId('rules-tab-iptables');
  await ipt.focus();
  await page.keyboard.press('ArrowRight');
  const nftTab = fig.getByTestId('rules-tab-nftables');
  await expect(nftTab).toBeFocused();
  await expect(nftTab).toHaveAttribute('aria-selected', 'true');
  const nft = fig.getByTestId('traffic-nft');
  await expect(nft).toContainText(/dnat ip addr \. port to numgen random mod 3 map/);
  await expect(nft.locator('mark')).toHaveCount(3);
  await expect(fig.getByTestId('nft-sentence')).toContainText('one numgen draw picks among 3 endpoints');
  await page.keyboard.press('ArrowLeft');
  await expect(fig.getByTestId('traffic-rules')).toBeVisible();
  // Another node's own copy: the same lines for web, none marked (the client's requests walk node-1's).
  await fig.getByTestId('rules-node-node-2').click();
  await expect(fig.getByTestId('rules-node-node-2')).toHaveAttribute('aria-pressed', 'true');
  await expect(fig.getByTestId('traffic-rules')).toContainText('KUBE-SVC-');
  await expect(fig.getByTestId('traffic-rules').locator('mark')).toHaveCount(0);
});
