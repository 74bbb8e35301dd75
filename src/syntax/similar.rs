//! The did-you-mean search: the declared name or keyword closest to a misspelt one. The
//! reader suggests keywords with it and the checker names.

/// The candidate closest to `name`, if close enough to be a likely misspelling.
pub(crate) fn similar<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    /// Enough for any real definition; bounds the work on a machine-made one.
    const MAX_COMPARED: usize = 2_000;
    let lower = name.to_lowercase();
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    candidates
        // Names whose lengths differ by more than the limit are farther than it.
        .filter(|c| c.chars().count().abs_diff(length) <= limit)
        .take(MAX_COMPARED)
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance counting a swap of neighbours as one edit (`peice` is one edit from
/// `piece`); names are short, so the quadratic table is fine.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}
