//! The statistics of comparing two groups of runs: a two-sided Mann-Whitney U test over
//! per-run values (exact for small groups without ties, else the normal approximation with
//! the tie correction and a continuity correction), and the Benjamini-Hochberg adjustment
//! that keeps the false-discovery rate over many methods at the level asked.

/// Groups up to this size (each) without ties get the exact distribution of U.
const EXACT_MAX: usize = 25;

/// A Mann-Whitney U test of two groups.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// The two-sided p-value that both groups come from one distribution.
    pub p: f64,
    /// How far the second group lies above the first: the chance that a value of the
    /// second exceeds one of the first (ties counting half), less one half. From -0.5
    /// (every value of the second below every value of the first) to 0.5.
    pub shift: f64,
}

/// The two-sided p-value of a Mann-Whitney U test that `a` and `b` come from one
/// distribution. 1 where either group is empty.
pub fn mann_whitney_p(a: &[f64], b: &[f64]) -> f64 {
    mann_whitney(a, b).p
}

/// The Mann-Whitney U test of `a` against `b`: p 1 and no shift where either is empty.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> MannWhitney {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return MannWhitney { p: 1.0, shift: 0.0 };
    }
    // Ranks of the pooled values, ties sharing their mean rank.
    let mut pooled: Vec<(f64, bool)> = a.iter().map(|&v| (v, true)).chain(b.iter().map(|&v| (v, false))).collect();
    pooled.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = pooled.len();
    let mut rank_sum_a = 0.0;
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && pooled[j + 1].0 == pooled[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let tied = (j - i + 1) as f64;
        tie_term += tied * tied * tied - tied;
        rank_sum_a += rank * pooled[i..=j].iter().filter(|(_, in_a)| *in_a).count() as f64;
        i = j + 1;
    }
    let u_a = rank_sum_a - (n1 * (n1 + 1)) as f64 / 2.0;
    // U of a counts the pairs where a's value is the larger (ties half).
    let shift = 0.5 - u_a / (n1 * n2) as f64;
    let u = u_a.min((n1 * n2) as f64 - u_a);
    if tie_term == 0.0 && n1 <= EXACT_MAX && n2 <= EXACT_MAX {
        return MannWhitney { p: exact_p(u as usize, n1, n2), shift };
    }
    let (n1, n2, n) = (n1 as f64, n2 as f64, n as f64);
    let mean = n1 * n2 / 2.0;
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if variance <= 0.0 {
        return MannWhitney { p: 1.0, shift };
    }
    let z = ((mean - u) - 0.5).max(0.0) / variance.sqrt();
    MannWhitney { p: (2.0 * normal_upper_tail(z)).min(1.0), shift }
}

/// The `q` quantile (0 to 1) of `sorted` (ascending), interpolated linearly between the two
/// nearest values, as R's type 7 and NumPy's default do; 0 for no values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted {
        [] => 0.0,
        _ => {
            let at = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
            let (low, frac) = (at.floor() as usize, at.fract());
            let high = (low + 1).min(sorted.len() - 1);
            sorted[low] + (sorted[high] - sorted[low]) * frac
        }
    }
}

/// P(U <= u) twice (two-sided), from the number of orderings of `n1` and `n2` values that
/// give each U.
fn exact_p(u: usize, n1: usize, n2: usize) -> f64 {
    let counts = u_counts(n1, n2);
    let total: f64 = counts.iter().sum();
    let below: f64 = counts.iter().take(u.min(n1 * n2) + 1).sum();
    (2.0 * below / total).min(1.0)
}

/// How many orderings of `n1` and `n2` distinct values give each U (0 to `n1 * n2`).
fn u_counts(n1: usize, n2: usize) -> Vec<f64> {
    // The number of orderings by U for groups of i and j values, built j by j: U counts
    // the pairs (a, b) with b < a. `previous[i]` holds j - 1's, `current[i]` j's.
    let mut previous: Vec<Vec<f64>> = (0..=n1).map(|_| vec![1.0]).collect();
    for j in 1..=n2 {
        let mut current: Vec<Vec<f64>> = vec![vec![1.0]];
        for i in 1..=n1 {
            // The largest value is either of the first group (it beats all j of the second:
            // U grows by j) or of the second (U unchanged).
            let from_first = &current[i - 1];
            let from_second = &previous[i];
            // U takes i * j + 1 values: (i - 1) * j + 1 for i - 1 and j, shifted by j.
            let len = (from_first.len() + j).max(from_second.len());
            let mut counts = vec![0.0; len];
            for (k, c) in from_first.iter().enumerate() {
                counts[k + j] += c;
            }
            for (k, c) in from_second.iter().enumerate() {
                counts[k] += c;
            }
            current.push(counts);
        }
        previous = current;
    }
    let mut counts = previous.swap_remove(n1);
    counts.resize(n1 * n2 + 1, 0.0);
    counts
}

/// The Hodges-Lehmann estimate of how far a second group lies above a first, with its
/// distribution-free confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shift {
    /// The median of every difference (second's value less first's): the shift.
    pub estimate: f64,
    /// The interval's lower end: an order statistic of those differences.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The interval's confidence: what was asked for where the runs allow it, else the
    /// most they allow (0.9 for three runs a side: the widest interval, least to most).
    pub confidence: f64,
}

/// The z of the normal approximation's 95% interval.
const Z_975: f64 = 1.959_963_984_540_054;

/// The Hodges-Lehmann shift of `b` over `a` with its 95% interval, as R's
/// `wilcox.test(b, a, conf.int = TRUE)` gives them where U's exact distribution applies
/// (groups up to 25 without ties): the interval runs from the k-th smallest to the k-th
/// largest difference, k the least U whose lower tail reaches 2.5% (at least 1). Otherwise
/// k comes from the normal approximation with the tie and continuity corrections the test
/// uses, so the interval leaves out 0 about where the test's p falls below 5%. `None`
/// where a group is empty.
pub fn hodges_lehmann(a: &[f64], b: &[f64]) -> Option<Shift> {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let mut differences: Vec<f64> = b.iter().flat_map(|&y| a.iter().map(move |&x| y - x)).collect();
    differences.sort_by(f64::total_cmp);
    let pairs = differences.len();
    let estimate = quantile(&differences, 0.5);
    let mut pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let tie_term: f64 = pooled
        .chunk_by(|x, y| x == y)
        .map(|run| {
            let t = run.len() as f64;
            t * t * t - t
        })
        .sum();
    let (k, confidence) = if tie_term == 0.0 && n1 <= EXACT_MAX && n2 <= EXACT_MAX {
        let counts = u_counts(n1, n2);
        let total: f64 = counts.iter().sum();
        // The least q with P(U <= q) >= 2.5%: the interval leaves out the q smallest and
        // q largest differences, and covers 1 - 2 P(U <= q - 1). The tail reaches 1 at the
        // last U, so some q is always found.
        let mut below = 0.0;
        let q = counts.iter().position(|&c| {
            below += c;
            below / total >= 0.025
        });
        let k = q.unwrap_or(0).max(1);
        let outside: f64 = counts.iter().take(k).sum();
        (k, 1.0 - 2.0 * outside / total)
    } else {
        let n = (n1 + n2) as f64;
        let (m1, m2) = (n1 as f64, n2 as f64);
        let sd = (m1 * m2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).max(0.0).sqrt();
        let k = (m1 * m2 / 2.0 + 0.5 - Z_975 * sd).floor().max(1.0) as usize;
        (k.min(pairs.div_ceil(2)), 0.95)
    };
    Some(Shift { estimate, low: differences[k - 1], high: differences[pairs - k], confidence })
}

/// P(Z > z) for a standard normal Z, through the Chebyshev fit of erfc whose relative
/// error is below 1.2e-7 at every z, so that a p-value written in three figures is right in
/// all three however small it is (a fit with only an absolute bound drifts by whole percent
/// in the far tail).
fn normal_upper_tail(z: f64) -> f64 {
    let x = (z / std::f64::consts::SQRT_2).abs();
    let t = 1.0 / (1.0 + 0.5 * x);
    let series = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * (-x * x + series).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// Benjamini-Hochberg adjusted p-values (q-values), in the order given: a method is
/// significant at false-discovery rate `alpha` where its q-value is at most `alpha`.
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&x, &y| p[x].total_cmp(&p[y]));
    let mut q = vec![1.0; m];
    let mut smallest: f64 = 1.0;
    for (rank, &i) in order.iter().enumerate().rev() {
        smallest = smallest.min(p[i] * m as f64 / (rank + 1) as f64);
        q[i] = smallest.min(1.0);
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.max(1e-12) + 1e-9
    }

    #[test]
    fn exact_p_values_match_the_tables() {
        // Complete separation: 2 of the C(n1+n2, n1) orderings are as extreme.
        assert!(close(mann_whitney_p(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]), 0.1));
        assert!(close(mann_whitney_p(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]), 2.0 / 252.0));
        assert!(close(mann_whitney_p(&[6.0, 7.0, 8.0, 9.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 5.0]), 2.0 / 252.0));
        // U = 1 of 3 and 3: orderings with U <= 1 are 2 of 20, twice: 0.2.
        assert!(close(mann_whitney_p(&[1.0, 2.0, 4.0], &[3.0, 5.0, 6.0]), 0.2));
        // Interleaved: nothing to see.
        assert!(close(mann_whitney_p(&[1.0, 4.0, 5.0, 8.0], &[2.0, 3.0, 6.0, 7.0]), 1.0));
        assert_eq!(mann_whitney_p(&[], &[1.0]), 1.0);
        // An empty group shows no shift either way.
        assert_eq!(mann_whitney(&[], &[1.0, 2.0]), MannWhitney { p: 1.0, shift: 0.0 });
        assert_eq!(mann_whitney(&[3.0], &[]), MannWhitney { p: 1.0, shift: 0.0 });
    }

    /// The exact p-value against every split of the ranks 1..=9 into 4 and 5 counted out.
    #[test]
    fn exact_p_values_equal_an_enumeration() {
        let (n1, n2) = (4usize, 5usize);
        let mut u_counts = vec![0u32; n1 * n2 + 1];
        for mask in 0u32..(1 << (n1 + n2)) {
            if mask.count_ones() as usize != n1 {
                continue;
            }
            // U of the first group: pairs (a in it, b not) with b < a.
            let u: usize = (0..n1 + n2)
                .filter(|&a| mask & (1 << a) != 0)
                .map(|a| (0..a).filter(|&b| mask & (1 << b) == 0).count())
                .sum();
            u_counts[u] += 1;
        }
        let total: u32 = u_counts.iter().sum();
        for u in 0..=n1 * n2 / 2 {
            let below: u32 = u_counts[..=u].iter().sum();
            let expected = (2.0 * f64::from(below) / f64::from(total)).min(1.0);
            assert!(close(exact_p(u, n1, n2), expected), "U = {u}");
        }
    }

    #[test]
    fn large_groups_and_ties_use_the_normal_approximation() {
        // 30 against 30 shifted by one standard deviation: clearly different.
        let a: Vec<f64> = (0..30).map(|i| f64::from(i) / 30.0).collect();
        let b: Vec<f64> = a.iter().map(|v| v + 0.3).collect();
        let p = mann_whitney_p(&a, &b);
        assert!(p < 0.01 && p > 1e-6, "{p}");
        // All tied: no evidence at all.
        assert_eq!(mann_whitney_p(&[1.0; 10], &[1.0; 10]), 1.0);
        // The tail function itself.
        assert!((normal_upper_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_upper_tail(0.0) - 0.5).abs() < 1e-7);
        // The standard normal table: P(Z > 1) = 0.158655, P(Z > -1) = 0.841345,
        // P(Z > -2.5) = 0.993790.
        assert!((normal_upper_tail(1.0) - 0.158_655).abs() < 1e-6);
        assert!((normal_upper_tail(-1.0) - 0.841_345).abs() < 1e-6);
        assert!((normal_upper_tail(-2.5) - 0.993_790).abs() < 1e-6);
        // The far tail, where p-values are written in three figures, within a millionth of
        // the value: P(Z > 5) = 2.866516e-7, P(Z > 6) = 9.865876e-10, P(Z > 8) = 6.220961e-16,
        // P(Z > 20) = 2.753624e-89.
        for (z, tail) in [(5.0, 2.866_516e-7), (6.0, 9.865_876e-10), (8.0, 6.220_961e-16), (20.0, 2.753_624e-89)] {
            let got = normal_upper_tail(z);
            assert!((got / tail - 1.0).abs() < 1e-6, "P(Z > {z}) = {got:e}, not {tail:e}");
        }
    }

    #[test]
    fn p_values_equal_rs_wilcox_test() {
        // R's own example (?wilcox.test, Hollander & Wolfe's permeability constants):
        // `wilcox.test(x, y, alternative = "greater")` reports W = 35, p-value = 0.1272; no
        // ties, so the exact two-sided p is twice that: 2 * 382 of the C(15, 10) = 3,003
        // orderings have W >= 35 (counted out), 0.254412.
        let x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
        let y = [1.15, 0.88, 0.90, 0.74, 1.21];
        let p = mann_whitney_p(&y, &x);
        assert!((p - 0.254_412).abs() < 1e-6, "{p}");
        assert_eq!(mann_whitney_p(&x, &y), p, "two-sided: the order of the groups does not matter");
        // Two groups of five with ties: `wilcox.test(c(1,2,2,3,4), c(3,4,4,5,6))`, by R's
        // normal approximation with its tie and continuity corrections, worked by hand:
        // W = 2.5 (2 pairs above, 1 tie); ties 2 (x2), 3 (x2), 4 (x3) give sum(t^3 - t) = 36;
        // sigma = sqrt(25/12 * (11 - 36/90)) = 4.699291; z = (2.5 - 12.5 + 0.5) / sigma =
        // -2.021582; p = 2 * pnorm(z) = 0.043220. Without the continuity correction it would
        // be 0.033339.
        let p = mann_whitney_p(&[1.0, 2.0, 2.0, 3.0, 4.0], &[3.0, 4.0, 4.0, 5.0, 6.0]);
        assert!((p - 0.043_220).abs() < 1e-5, "{p}");
    }

    #[test]
    fn benjamini_hochberg_equals_the_papers_worked_example() {
        // Benjamini and Hochberg (1995), section 4: fifteen p-values; at q = 0.05 the first
        // four are rejected (the largest i with p(i) <= i/15 * 0.05 is 4: 0.0095 <= 0.0133,
        // 0.0201 > 0.0167). Adjusted by hand, min over j >= i of p(j) * 15 / j: the fourth
        // 0.0095 * 15/4 = 0.035625; the fifth 0.0201 * 3 = 0.0603 (no later one is smaller);
        // the sixth min(0.0278 * 2.5, 0.0298 * 15/7, ...) = 0.0298 * 15/7 = 0.063857.
        let p = [
            0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528,
            0.7590, 1.0,
        ];
        let q = benjamini_hochberg(&p);
        assert_eq!(q.iter().filter(|&&q| q <= 0.05).count(), 4);
        assert!(close(q[3], 0.035_625), "{}", q[3]);
        assert!(close(q[4], 0.0603), "{}", q[4]);
        assert!(close(q[5], 0.0298 * 15.0 / 7.0), "{}", q[5]);
        assert!(close(q[0], 0.0015) && close(q[14], 1.0), "{q:?}");
    }

    #[test]
    fn the_shift_says_which_group_lies_higher() {
        assert_eq!(mann_whitney(&[1.0, 2.0], &[3.0, 4.0]).shift, 0.5);
        assert_eq!(mann_whitney(&[3.0, 4.0], &[1.0, 2.0]).shift, -0.5);
        assert_eq!(mann_whitney(&[1.0, 2.0], &[1.0, 2.0]).shift, 0.0);
        // 3 > 1, 3 > 2, 2 = 2 (half), 2 > 1: 3.5 of 4 pairs.
        assert_eq!(mann_whitney(&[1.0, 2.0], &[2.0, 3.0]).shift, 0.375);
        // Groups of 3 and 2 (6 pairs, not 5): the first's 5 beats both of the second's, so
        // the second lies above the first in 4 of 6 pairs: 4/6 - 1/2.
        assert!((mann_whitney(&[1.0, 2.0, 5.0], &[3.0, 4.0]).shift - (4.0 / 6.0 - 0.5)).abs() < 1e-12);
    }

    #[test]
    fn hodges_lehmann_gives_rs_estimate_and_interval() {
        // wilcox.test(6:10, 1:5, conf.int = TRUE): the 25 differences run 1 to 9; the
        // median is 5; U's lower tail reaches 2.5% at 3 (P(U <= 2) = 4/252, P(U <= 3) =
        // 7/252), so the interval is the 3rd smallest to the 3rd largest, 2 to 8, at
        // 1 - 2 * 4/252.
        let shift = hodges_lehmann(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (5.0, 2.0, 8.0));
        assert!(close(shift.confidence, 1.0 - 8.0 / 252.0), "{}", shift.confidence);
        // Three a side cannot reach 95%: R warns and gives the widest interval, least to
        // most difference, at 1 - 2/20.
        let shift = hodges_lehmann(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (3.0, 1.0, 5.0));
        assert!(close(shift.confidence, 0.9));
        // The other way round, the interval turns with it.
        let shift = hodges_lehmann(&[4.0, 5.0, 6.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (-3.0, -5.0, -1.0));
        assert_eq!(hodges_lehmann(&[], &[1.0]), None);
        // 1:10 against 11:20: the published critical value of U for ten a side at 5%
        // two-sided is 23, so the interval is the 24th smallest to the 24th largest of the
        // 100 differences (d appears 10 - |d - 10| times): 7 to 13. Its confidence counted
        // out over the C(20, 10) = 184,756 orderings: 3,996 have U <= 23.
        let (a, b): (Vec<f64>, Vec<f64>) = ((1..=10).map(f64::from).collect(), (11..=20).map(f64::from).collect());
        let shift = hodges_lehmann(&a, &b).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (10.0, 7.0, 13.0));
        assert!(close(shift.confidence, 1.0 - 2.0 * 3_996.0 / 184_756.0), "{}", shift.confidence);
    }

    #[test]
    fn hodges_lehmanns_tie_correction_narrows_the_interval() {
        // By hand: three 1s and nine 2s against 1, 1, 2, 2, 2, 3. Pooled, 1 five times, 2
        // twelve times, 3 once: tie term 120 + 1716 = 1836, and 1836 / (18 * 17) = 6, so the
        // variance is 72/12 (19 - 6) = 78 and k = floor(36.5 - 1.959964 * 8.8318) = 19.
        // The 72 differences: -1 x18, 0 x33, 1 x18, 2 x3; the 19th smallest is 0, the 19th
        // largest 1. Without the tie correction k would be 15, and the exact table's (for
        // values without ties) 16: both reach -1.
        let a = [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let shift = hodges_lehmann(&a, &[1.0, 1.0, 2.0, 2.0, 2.0, 3.0]).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (0.0, 0.0, 1.0));
        assert_eq!(shift.confidence, 0.95);
    }

    #[test]
    fn hodges_lehmann_with_ties_or_many_runs_takes_the_normal_approximation() {
        // By hand: 4 and 4 with ties (2 three times, 3 and 4 twice): tie term 36, variance
        // 16/12 (9 - 36/56) = 11.1429, k = floor(8.5 - 1.96 * 3.3381) = 1. The differences
        // are -1, 0 x3, 1 x5, 2 x5, 3 x2: the interval -1 to 3, the median 1.
        let shift = hodges_lehmann(&[1.0, 2.0, 2.0, 3.0], &[2.0, 3.0, 4.0, 4.0]).unwrap();
        assert_eq!((shift.estimate, shift.low, shift.high), (1.0, -1.0, 3.0));
        // 30 squares against the same moved by 10 (no value in both): every difference is
        // 10 plus one of the first group's own, so the estimate is 10 and the interval lies
        // evenly about it; k = floor(450.5 - 1.96 * sqrt(900 * 61 / 12)) = 317.
        let a: Vec<f64> = (0..30).map(|i| f64::from(i * i)).collect();
        let b: Vec<f64> = a.iter().map(|v| v + 10.0).collect();
        let shift = hodges_lehmann(&a, &b).unwrap();
        assert_eq!(shift.estimate, 10.0);
        assert_eq!(shift.low + shift.high, 20.0);
        let mut differences: Vec<f64> = b.iter().flat_map(|y| a.iter().map(move |x| y - x)).collect();
        differences.sort_by(f64::total_cmp);
        assert_eq!((shift.low, shift.high), (differences[316], differences[900 - 317]));
    }

    #[test]
    fn quantiles_interpolate_between_neighbours() {
        let v = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.25), 1.75);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 8.0);
        assert_eq!(quantile(&[5.0], 0.3), 5.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn benjamini_hochberg_adjusts_in_order_and_stays_monotone() {
        let q = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
        let expected = [0.02, 0.04, 0.04, 0.02];
        assert!(q.iter().zip(expected).all(|(a, b)| close(*a, b)), "{q:?}");
        assert_eq!(benjamini_hochberg(&[]), Vec::<f64>::new());
        assert_eq!(benjamini_hochberg(&[0.9, 0.8]), [0.9, 0.9]);
    }
}
