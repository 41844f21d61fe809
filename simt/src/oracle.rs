//! The thesis's Algorithm 1 (`DR_Analysis`), written as literally as possible: for every MI
//! `i`, build its address structure; for every later MI `j`, build `j`'s, intersect, and
//! accumulate `DS_ij` at `RD = j − i`. O(S²·T) for S MIs of T lanes — the test oracle for
//! [`crate::reuse::ReuseDegreeAnalyzer`], not for real traces.

use crate::mi::MemInstr;
use crate::reuse::DsHistogram;
use std::collections::HashMap;

/// Function `addressStruct` of Algorithm 1: address → multiplicity.
fn address_struct(mi: &MemInstr) -> HashMap<u64, u64> {
    let mut m = HashMap::new();
    // See: Algorithm 1 lines 13-20 (multiplicity, thesis definition 1).
    for &a in &mi.lanes {
        *m.entry(a).or_insert(0) += 1;
    }
    m
}

/// DS-vs-RD histogram by Algorithm 1, considering pairs up to `max_rd` apart.
pub fn dr_analysis(stream: &[MemInstr], max_rd: Option<u64>) -> DsHistogram {
    let mut hist = DsHistogram::new(max_rd);
    let s = stream.len();
    // See: Algorithm 1 line 2 (step 1): every MI i.
    for i in 0..s {
        let m_i = address_struct(&stream[i]); // Step 2
                                              // Step 3: every later MI j (within the window when one is given).
        for (j, mi_j) in stream.iter().enumerate().skip(i + 1) {
            let rd = (j - i) as u64; // Step 6a, thesis definition 3.
            if max_rd.is_some_and(|w| rd > w) {
                break;
            }
            let m_j = address_struct(mi_j); // Step 4
                                            // Step 5: common addresses, summing their multiplicity in j (definition 2).
            let mut ds = 0;
            for (a, &v) in &m_j {
                if m_i.contains_key(a) {
                    ds += v;
                }
            }
            hist.add(rd, ds, ds > 0); // Step 6b
        }
    }
    hist.mis = s as u64;
    hist.lanes = stream.iter().map(|m| m.lanes.len() as u64).sum();
    hist.trim();
    hist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reuse::analyze_stream;

    #[test]
    fn oracle_matches_a_hand_count() {
        let mk = |l: &[u64]| MemInstr {
            lanes: l.to_vec(),
            ..Default::default()
        };
        let s = [mk(&[1, 1, 2]), mk(&[3]), mk(&[1, 2, 2]), mk(&[2])];
        // Pairs: (0,2) common {1,2}: 1 + 2 = 3 at RD 2; (0,3) {2}: 1 at RD 3; (2,3) {2}: 1 at
        // RD 1; pairs with MI 1 share nothing.
        let h = dr_analysis(&s, None);
        assert_eq!(h.ds, vec![0, 1, 3, 1]);
        assert_eq!(h.reusing_pairs, vec![0, 1, 1, 1]);
        assert_eq!(h, analyze_stream(&s, None));
    }
}
