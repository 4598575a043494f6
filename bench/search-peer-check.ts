// Whether our answer to a search agrees with the peer's (bench/search-peer.ts): the same page, and
// the same total and navigation counts where ours says they are exact; where ours are estimated,
// how far, in the documented standard error of an estimated count c: √(c × total / 2,500)
// (docs/api.md "Counts above the exact limit").
import type { ComparableAnswer } from './sphinx-queries.ts';

export interface Agreement {
  /** Exact answers that differ, or pages that differ: the bench fails on these. */
  problems: string[];
  /** One line for the table. */
  summary: string;
}

const SAMPLE = 2500;

export function compareAnswers(ours: ComparableAnswer, peer: ComparableAnswer): Agreement {
  const problems: string[] = [];
  if (ours.ids.join(',') !== peer.ids.join(','))
    problems.push(`page differs: ours [${ours.ids.join(',')}], peer [${peer.ids.join(',')}]`);
  const errorOf = (count: number) =>
    Math.sqrt((Math.max(count, 1) * Math.max(peer.total, 1)) / SAMPLE);
  const lists = Object.keys(peer.navigations);
  if (ours.exact) {
    if (ours.total !== peer.total) problems.push(`total ${ours.total}, peer ${peer.total}`);
    for (const list of lists) {
      const a = ours.navigations[list];
      const b = peer.navigations[list]!;
      const differs = !a || a.size !== b.size || [...b].some(([id, n]) => a.get(id) !== n);
      if (differs) problems.push(`${list} counts differ`);
    }
    for (const [type, [low, high]] of peer.priceRanges) {
      const range = ours.priceRanges.get(type);
      // The peer keeps prices as 32-bit floats.
      if (!range || Math.abs(range[0] - low) > 0.01 || Math.abs(range[1] - high) > 0.01)
        problems.push(
          `price range of type ${type}: ours ${range?.join('..')}, peer ${low}..${high}`,
        );
    }
    return {
      problems,
      summary: `exact: total ${peer.total}${lists.length ? `, ${lists.length} lists` : ''}${problems.length ? ' DIFFER' : ' equal'}`,
    };
  }
  const totalOff = (ours.total - peer.total) / peer.total;
  const totalSe = Math.abs(ours.total - peer.total) / errorOf(peer.total);
  let worst = 0;
  let missing = 0;
  let worstRelative = 0;
  for (const list of lists)
    for (const [id, n] of peer.navigations[list]!) {
      const estimate = ours.navigations[list]?.get(id);
      if (estimate === undefined) missing++;
      worst = Math.max(worst, Math.abs((estimate ?? 0) - n) / errorOf(n));
      worstRelative = Math.max(worstRelative, Math.abs((estimate ?? 0) - n) / n);
    }
  if (totalSe > 4)
    problems.push(`estimated total ${ours.total} is ${totalSe.toFixed(1)} SE from ${peer.total}`);
  return {
    problems,
    summary:
      `estimated: total ${(totalOff * 100).toFixed(2)} % (${totalSe.toFixed(1)} SE)` +
      (lists.length
        ? `, counts within ${worst.toFixed(1)} SE (up to ${(worstRelative * 100).toFixed(0)} %), ${missing} missing`
        : ''),
  };
}
