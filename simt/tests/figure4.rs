//! The thesis's Figure 4 stream (section 4.1), read through the GPU text importer: DS = 2
//! between MIs i and i+2 (address A, multiplicity 2 in i+2), DS = 3 between i+2 and i+4
//! (H twice and N once in i+4), and DS = 0 for every pair without a common address.

use rdsimt::gpu_text::read_gpu_text;
use rdsimt::oracle::dr_analysis;
use rdsimt::{reuse_degree, run_scenario, Scenario, ScenarioConfig};

/// The example of docs/simt-trace-format.md: letters A.. become addresses 0xA0...
const FIGURE_4: &str = "\
simt-trace 1
kernel figure4
# block pc pos gpos threads addresses...
0 100 1 1 4 0xA0 0xA0 0xB0 0xC0          # MI i:   A A B C
0 101 2 2 4 0xD0 0xE0 0xF0 0x100        # MI i+1: D E F G
0 102 3 3 5 0xA0 0xA0 0x110 0x120 0x130  # MI i+2: A A H N K
0 103 4 4 4 0x140 0x150 0x160 0x170     # MI i+3: P Q R S
0 104 5 5 4 0x110 0x110 0x120 0x180     # MI i+4: H H N T
";

#[test]
fn figure_4_reuse_degrees() {
    let kernels = read_gpu_text(FIGURE_4.as_bytes(), "figure4").unwrap();
    assert_eq!(kernels.len(), 1);
    let mis = &kernels[0].blocks[0].mis;
    assert_eq!(mis.len(), 5);
    let x: Vec<_> = mis.iter().map(|m| m.address_array()).collect();
    // Definition 1: multiplicities.
    assert_eq!(x[0].multiplicity(0xA0), 2);
    assert_eq!(x[4].multiplicity(0x110), 2);
    assert_eq!(x[4].multiplicity(0x120), 1);
    // Definition 2, the values in the figure's "Reuse Degree" column.
    assert_eq!(reuse_degree(&x[0], &x[2]), 2);
    assert_eq!(reuse_degree(&x[2], &x[4]), 3);
    // "The DS between MIs i to i+1, i+3 and i+4 is zero (not undetermined)."
    for j in [1, 3, 4] {
        assert_eq!(reuse_degree(&x[0], &x[j]), 0, "DS(i, i+{j})");
    }
    for (i, j) in [(1, 2), (1, 3), (1, 4), (2, 3), (3, 4)] {
        assert_eq!(reuse_degree(&x[i], &x[j]), 0, "DS(i+{i}, i+{j})");
    }
}

#[test]
fn figure_4_histogram_in_every_single_block_scenario() {
    let kernels = read_gpu_text(FIGURE_4.as_bytes(), "figure4").unwrap();
    let k = &kernels[0];
    // Both non-zero pairs are two MIs apart (definition 3: RD = j − i).
    let expected = vec![0, 0, 5];
    assert_eq!(dr_analysis(&k.blocks[0].mis, None).ds, expected);
    for scenario in Scenario::ALL {
        let config = ScenarioConfig {
            scenario,
            lsu: 8,
            ..Default::default()
        };
        let r = run_scenario(k, &config).unwrap();
        assert_eq!(r.total.ds, expected, "scenario {}", scenario.number());
        assert_eq!(r.total.reusing_pairs, vec![0, 0, 2]);
        assert_eq!(r.total.mis, 5);
        assert_eq!(r.total.lanes, 21);
    }
}
