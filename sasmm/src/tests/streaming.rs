//! Trace files and the streamed builders: both models read from a file or fed streamed (held or
//! spilled) fragments equal the in-memory ones, and counting windows alone counts the same
//! blocks.

use super::*;

#[test]
fn trace_files_round_trip_through_the_model_and_the_measurement() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, threads: &[Vec<Event>]| {
        let path = dir.path().join(name);
        rdtrace::testing::write_trace(&path, &module(), threads).unwrap();
        path
    };
    let seq_path = write("seq.rdtrace", &[events(8)]);
    let s = SequentialTrace::open(&seq_path).unwrap();
    assert_eq!(s.accesses.len(), 2 + 2 + 8);
    let two = write("two.rdtrace", &[events(8), events(8)]);
    let err = SequentialTrace::open(&two).unwrap_err().to_string();
    assert!(err.contains("sequential"), "{err}");
    // The streamed model reads the file in one pass and agrees with the in-memory one.
    let cfg = crate::exact::ExactConfig::default();
    let seq_trace = rdtrace::Trace::open(&seq_path).unwrap();
    let limits = [
        StreamLimits { flush: 0, spill: 0 },
        StreamLimits {
            flush: 1 << 20,
            spill: 1 << 20,
        },
    ];
    for limits in limits {
        let cfg = crate::exact::ExactConfig {
            limits,
            ..cfg.clone()
        };
        for cores in [1, 3] {
            assert_eq!(
                crate::exact::predict_exact_trace(&seq_trace, &cfg, cores).unwrap(),
                crate::exact::predict_exact(&s, &cfg, cores).unwrap()
            );
        }
        // One pass for several core counts equals one pass each.
        let many = crate::exact::predict_exact_many_trace(&seq_trace, &cfg, &[3, 1, 3]).unwrap();
        for (p, m) in many.iter().zip([3, 1, 3]) {
            assert_eq!(p, &crate::exact::predict_exact(&s, &cfg, m).unwrap());
        }
    }
    // So does the streamed formula model (one pass), for each configuration and core count;
    // the third configuration differs from the first only in its caches' sizes and ways, so the
    // two share one run of the stacks per core count, and the runs of the first and the third
    // one sampler (spilled or held: both spill thresholds).
    let configs = [
        SasmmConfig::default(),
        {
            let mut c = SasmmConfig::default();
            c.profile.sample_rate = 0.5;
            c.profile.min_samples = 1;
            c.l2 = CacheConfig::new(1024, 4, 128).unwrap();
            c
        },
        SasmmConfig {
            l1: CacheConfig::new(16 << 10, 4, 64).unwrap(),
            l2: CacheConfig::new(256 << 10, 8, 64).unwrap(),
            ..SasmmConfig::default()
        },
    ];
    for limits in limits {
        let configs = configs.map(|c| SasmmConfig { limits, ..c });
        let streamed = crate::formula::predict_many_trace(&seq_trace, &configs, &[1, 3]).unwrap();
        for (c, per_core) in configs.iter().zip(&streamed) {
            for (m, p) in [1, 3].iter().zip(per_core) {
                assert_eq!(p, &predict(&s, c, *m).unwrap());
            }
        }
        // The exact model fed the formula model's pass (the same limits) or a pass of
        // its own (other limits) predicts what it predicts alone, and the formula model too.
        for exact_limits in [limits, StreamLimits { flush: 7, spill: 5 }] {
            let exact_cfg = crate::exact::ExactConfig {
                limits: exact_limits,
                ..cfg.clone()
            };
            let (formula, exact) =
                crate::exact::predict_both_many_trace(&seq_trace, &configs, &exact_cfg, &[1, 3])
                    .unwrap();
            assert_eq!(formula, streamed);
            for (p, m) in exact.iter().zip([1, 3]) {
                assert_eq!(p, &crate::exact::predict_exact(&s, &exact_cfg, m).unwrap());
            }
        }
    }
    let trace = rdtrace::Trace::open(&two).unwrap();
    let err = crate::exact::predict_exact_trace(&trace, &cfg, 2)
        .unwrap_err()
        .to_string();
    assert!(err.contains("sequential"), "{err}");
    let err = crate::formula::predict_many_trace(&trace, &configs, &[2])
        .unwrap_err()
        .to_string();
    assert!(err.contains("sequential"), "{err}");
    let m = measure(&trace, MeasureConfig::default()).unwrap();
    assert_eq!(m.threads, 2);
    assert_eq!(m.references, 2 * 12);
    // One entry per trace thread, by trace index, with its OpenMP number; each ran the 12
    // references of the program.
    let named: Vec<(u32, Option<u32>, u64)> = m
        .per_thread
        .iter()
        .map(|t| (t.thread, t.omp_thread, t.rates.counts.references))
        .collect();
    assert_eq!(named, [(0, Some(0), 12), (1, Some(0), 12)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The exact model fed the streamed fragments equals it over the whole sequential trace,
    /// for every flush threshold (0: a serial section is cut at every window), spill threshold
    /// (0: every parallel fragment goes through a temporary file), core count and
    /// interleaving; the fragments hold every access once.
    #[test]
    fn streamed_fragments_give_the_exact_model_of_the_whole_trace(
        events in random_program(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 2, 7, 1 << 20]),
    ) {
        use crate::exact::{predict_exact, ExactConfig, ExactRun};
        let whole = SequentialTrace::from_events(&meta(), events.clone()).unwrap();
        let cfg = |interleave| ExactConfig {
            l1: vec![CacheConfig::new(256, 2, 64).unwrap()],
            l2: vec![
                CacheConfig::new(1024, 4, 64).unwrap(),
                CacheConfig::parse("512:full:64").unwrap(),
            ],
            interleave,
            mrc: vec![512, 2048],
            ..ExactConfig::default()
        };
        for interleave in [Interleave::RoundRobin, Interleave::Uniform { seed: 3 }] {
            for cores in [1, 2, 3] {
                let c = cfg(interleave);
                let expected = predict_exact(&whole, &c, cores).unwrap();
                let mut run = ExactRun::new(&c, cores).unwrap();
                let mut accesses = 0;
                let mut windows = 0;
                let limits = StreamLimits { flush, spill };
                let mut spilled = 0;
                let seen = SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut |f| {
                    accesses += f.accesses() as usize;
                    windows += f.windows() as usize;
                    spilled += matches!(f, crate::Fragment::Spilled(_)) as usize;
                    run.feed_fragment(f)
                })
                .unwrap();
                let parallel = whole.sections.iter().any(|s| s.parallel);
                prop_assert_eq!(spill == 0 && parallel, spill == 0 && spilled > 0);
                prop_assert_eq!(seen as usize, whole.accesses.len());
                prop_assert_eq!(accesses, whole.accesses.len());
                prop_assert_eq!(windows, whole.windows.len());
                prop_assert_eq!(run.finish(), expected);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The formula model over the streamed fragments (one pass, Alg. 3's sample drawn as it
    /// goes) equals the in-memory model over the whole sequential trace, bit for bit, for
    /// every flush threshold, core count, interleaving and sample rate, and counts the same
    /// windows, instances and parallel blocks.
    #[test]
    fn streamed_formula_equals_the_in_memory_formula(
        events in random_program(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 2, 7, 1 << 20]),
        rate in prop::sample::select(vec![1.0f64, 0.5, 0.2, 0.01]),
        min_samples in 0u64..3,
        seed in 0u64..4,
    ) {
        use crate::formula::{BlockCounts, FormulaRuns};
        let whole = SequentialTrace::from_events(&meta(), events.clone()).unwrap();
        let limits = StreamLimits { flush, spill };
        // With equal line sizes one core's CRD is its PRD (the formula run computes it once):
        // 64-byte L2 lines take that path, 128-byte ones the shared stack.
        for (interleave, l2_line) in [
            (Interleave::RoundRobin, 128),
            (Interleave::Uniform { seed: 3 }, 128),
            (Interleave::RoundRobin, 64),
            (Interleave::Uniform { seed: 3 }, 64),
        ] {
            for cores in [1, 2, 3] {
                let mut config = SasmmConfig {
                    l1: CacheConfig::new(256, 2, 64).unwrap(),
                    l2: CacheConfig::new(1024, 4, l2_line).unwrap(),
                    interleave,
                    ..SasmmConfig::default()
                };
                config.profile.sample_rate = rate;
                config.profile.min_samples = min_samples;
                config.profile.seed = seed;
                if seed % 2 == 1 {
                    config.profile.weighting = crate::profile::BbWeighting::Paper;
                }
                let expected = predict(&whole, &config, cores).unwrap();
                let mut run = FormulaRuns::new(&[config], &[cores], whole.num_blocks()).unwrap();
                SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut |f| {
                    run.feed(f)
                })
                .unwrap();
                prop_assert_eq!(run.counts(), BlockCounts::of(&whole));
                prop_assert_eq!(run.finish(), vec![vec![expected]]);
            }
        }
    }
}

/// The formula model's pass counts the hand program's blocks: the empty continuations (of the
/// exit block after the loop, of `main`'s entry block after the join) are dropped and the
/// loop's windows counted as parallel, whether the parallel fragment is held or spilled.
#[test]
fn block_counts_drop_empty_continuations_held_or_spilled() {
    use crate::formula::{BlockCounts, FormulaRuns};
    for spill in [0, 1, 1 << 20] {
        let limits = StreamLimits { flush: 1, spill };
        let config = SasmmConfig::default();
        let blocks = SequentialTrace::block_ids(&meta());
        let mut run = FormulaRuns::new(&[config], &[2], blocks).unwrap();
        let accesses =
            SequentialTrace::stream_events(&meta(), events(4), limits, &mut |f| run.feed(f))
                .unwrap();
        assert_eq!(accesses, 8);
        let counts = run.counts();
        // Blocks: main entry, main after, outlined entry, loop header, loop body, loop exit,
        // before the first block.
        assert_eq!(counts.windows, [1, 1, 1, 4, 4, 1, 0], "spill {spill}");
        assert_eq!(counts.instances, counts.windows);
        assert_eq!(
            counts.parallel,
            [false, false, true, true, true, true, false]
        );
        assert_eq!(counts, BlockCounts::of(&seq(4)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The formula model's one pass counts every window of the fragments once, with its flags
    /// as the fragments' readers see them (a held window is parallel when its placement is
    /// not serial, a spilled one when its section is parallel), held or spilled, whatever the
    /// thresholds and wherever the program's sections are cut.
    #[test]
    fn block_counts_are_the_counts_of_the_fragments(
        events in random_program_with_cuts(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 1, 2, 7, 1 << 20]),
    ) {
        use crate::formula::{BlockCounts, FormulaRuns};
        let limits = StreamLimits { flush, spill };
        let blocks = SequentialTrace::block_ids(&meta());
        let config = SasmmConfig::default();
        let mut run = FormulaRuns::new(&[config], &[2], blocks).unwrap();
        let mut expected = BlockCounts::new(blocks);
        SequentialTrace::stream_events(&meta(), events, limits, &mut |f| {
            match f {
                crate::Fragment::Memory(s) => expected.add(s),
                crate::Fragment::Spilled(s) => {
                    s.for_each_window(|b, c, p| expected.add_window(b, c, p))?
                }
            }
            run.feed(f)
        })
        .unwrap();
        prop_assert_eq!(run.counts(), expected);
    }
}

/// What a model sees of a fragment: all of it in memory, or a spilled one's size and windows.
fn seen(f: crate::Fragment<'_>) -> String {
    match f {
        crate::Fragment::Memory(s) => format!("{s:?}"),
        // Read back from its file (on the model's thread, after the builder dropped its own
        // handle, when pipelined).
        crate::Fragment::Spilled(s) => {
            let mut windows = Vec::new();
            s.for_each_window(|bb, continuation, parallel| {
                windows.push((bb, continuation, parallel))
            })
            .unwrap();
            format!("spilled {} {} {windows:?}", s.windows(), s.accesses())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// With the model on its own thread, it sees the same fragments (windows, accesses,
    /// sections, worksharing runs and the program's tables) in the same order as fed directly,
    /// held or spilled, at every flush and spill threshold.
    #[test]
    fn the_pipelined_stream_hands_over_the_same_fragments(
        events in random_program(),
        flush in prop::sample::select(vec![0usize, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 7, 1 << 20]),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seq.rdtrace");
        rdtrace::testing::write_trace(&path, &module(), &[events]).unwrap();
        let trace = rdtrace::Trace::open(&path).unwrap();
        let limits = StreamLimits { flush, spill };
        // (A program without accesses is an error either way, after the same fragments.)
        let mut direct = Vec::new();
        let direct_end = SequentialTrace::stream_with(&trace, limits, &mut |f| {
            direct.push(seen(f));
            Ok(())
        })
        .map_err(|e| e.to_string());
        let mut piped = Vec::new();
        let piped_end = crate::seq::stream_pipelined(&trace, limits, &mut piped, &|piped, f| {
            piped.push(seen(f));
            Ok(())
        })
        .map_err(|e| e.to_string());
        prop_assert_eq!(piped_end, direct_end);
        prop_assert_eq!(piped, direct);
    }
}

/// The model's first error ends the stream and is what the pass returns.
#[test]
fn the_models_error_stops_the_pipelined_stream() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seq.rdtrace");
    rdtrace::testing::write_trace(&path, &module(), &[events(64)]).unwrap();
    let trace = rdtrace::Trace::open(&path).unwrap();
    let limits = StreamLimits { flush: 0, spill: 0 };
    let mut fed = 0;
    let err = crate::seq::stream_pipelined(&trace, limits, &mut fed, &|fed, _| {
        *fed += 1;
        if *fed == 2 {
            return Err(crate::SasmmError::Config("the model failed here".into()));
        }
        Ok(())
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        crate::SasmmError::Config("the model failed here".into()).to_string()
    );
    assert_eq!(fed, 2);
}
