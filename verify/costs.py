"""Cost estimates of claims, checked by ``python -m verify run`` before anything runs (issue 19, item 5).

One central table keyed by claim id (claim modules need no edit).

* :data:`ESTIMATES`: claims whose parameters drive memory or time.  Each :class:`Estimate` gives the
  memory of the dominant parameter-driven arrays in bytes (read off the claim's check: 2^n cube tables,
  N x n matrices, vectorised Monte Carlo draws ...; the interpreter and imported libraries, about
  0.3 GiB, come on top) and a time model: a growth law per parameter, calibrated against the seconds the
  full tier took on the reference machine (report/results.json, 2 CPUs, numba threads 2; mutants
  included).  Both are rough (a factor of 2-3 either way); their purpose is to refuse the values that
  need tens of GiB or days, before they allocate, with the estimate in the message.  A few memory models
  were checked against tracemalloc peaks (tests/test_costs.py, ``test_memory_model_against_tracemalloc``).
* :data:`SAFE`: claims with parameters whose whole declared domain is cheap, with the reason (checked
  mechanically by tests/test_costs.py, or a sentence from reading the check: :data:`SAFE_BY_READING`).
* Every parameter of every registered claim is covered (audited claim by claim for issue 19 in four parts:
  seed000/001/003, thesis ch. 4-5, thesis ch. 6-8, seed002; tests/test_costs.py keeps :func:`_pending` empty).
  A parameter that neither covers (:func:`uncovered`: a new claim's, until it gets an entry) gets the
  conservative default: a numeric parameter, or the largest item of a numeric list parameter, may go up to
  ``DEFAULT_FACTOR`` times the largest value any tier uses; beyond that its cost is unknown and the run is
  refused.
* Checks made of separate parts (a training grid plus a closed form, a search plus a table) use a ``work``
  function that takes the largest of the parts' cost ratios (:func:`_parts_work`, :func:`_parts`), an upper
  bound whatever the split of the recorded seconds; claims whose recorded time is a cache hit on another
  claim's work are calibrated with both (:data:`SHARED_CACHE`).

Measured (tracemalloc peak against the model): seed000.def_2.2 at N = n = 128 63.6 / 63.5 MiB,
thesis_ch5.lemma_B.1 at n = 21 48.2 / 48.0 MiB, thesis_ch8.icl_mc_data_model at n = 10^5, t = 30
111 / 122 MiB, thesis_ch6.assumption_6.2 at n = 20 17.3 / 16.0 MiB, thesis_ch5.warmup_gradient at n = 19
40 / 40 MiB (after raising its model from 7 to 10 arrays); issue 19 part A: seed003.definition_3 at instances = 1000,
d = 128 18.9 / 23.4 MiB, seed001.appendix_h_score at H = 2048 107 / 173 MiB, seed000.lemma_C.1 at the full tier
with mutants 112 / 293 MiB, seed000.theorem_D.6 at perturbations = 20000 29 / 74 MiB.

A refusal exits 2 (``InvalidParameter``) with the estimate and the limit.  Limits: memory
``VERIFY_MEMORY_BUDGET_GIB`` (default: half the physical memory, at least 4 GiB), time ``VERIFY_TIME_BUDGET_HOURS`` (default 24).  ``--force``
runs anyway.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

DEFAULT_FACTOR = 2.0
GIB = 2**30
F8 = 8  # bytes of a float64 / int64
RESULTS_JSON = Path(__file__).resolve().parent.parent / "report" / "results.json"


def memory_budget() -> float:
    """``VERIFY_MEMORY_BUDGET_GIB`` if set, else half this machine's physical memory, at least 4 GiB."""
    if os.environ.get("VERIFY_MEMORY_BUDGET_GIB"):
        return float(os.environ["VERIFY_MEMORY_BUDGET_GIB"]) * GIB
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        total = 0
    return max(4.0 * GIB, 0.5 * total)


def time_budget() -> float:
    return float(os.environ.get("VERIFY_TIME_BUDGET_HOURS", "24")) * 3600.0


@dataclass(frozen=True)
class Cost:
    memory_bytes: float | None = None
    seconds: float | None = None
    note: str = ""


# growth laws of the time in one parameter (ratios of these are what matters)
LAWS: dict[str, Callable[[float], float]] = {
    "const": lambda v: 1.0,
    "lin": lambda v: max(float(v), 1e-300),
    "nlogn": lambda v: max(float(v), 2.0) * math.log2(max(float(v), 2.0)),
    "quad": lambda v: max(float(v), 1e-300) ** 2,
    "cubic": lambda v: max(float(v), 1e-300) ** 3,
    "quartic": lambda v: max(float(v), 1e-300) ** 4,
    "exp2": lambda v: 2.0 ** float(v),  # one 2^v table (or a loop up to v: the last term dominates)
    "nexp2": lambda v: max(float(v), 1.0) * 2.0 ** float(v),  # a Walsh-Hadamard transform of 2^v entries
    "exp4": lambda v: 4.0 ** float(v),
    "exp10": lambda v: 10.0 ** float(v),
    "pow5": lambda v: max(float(v), 1e-300) ** 5,
    "inv2": lambda v: max(float(v), 1e-300) ** -2,  # e.g. a step count T ~ 1/eps^2
}


@dataclass(frozen=True)
class Estimate:
    """memory(params) -> bytes of the dominant parameter-driven arrays; time: parameter -> growth law
    (a key of :data:`LAWS`); free: parameters that drive neither memory nor time beyond their declared
    domain (with the estimate's note saying why).  Parameters in none of these get the default rule."""

    memory: Callable[[Mapping[str, Any]], float]
    note: str
    time: Mapping[str, str] = field(default_factory=dict)
    free: tuple[str, ...] = ()
    memory_params: tuple[str, ...] = ()
    #: work(params) when the parameters do not act separately (e.g. (2^(d+1))^m datasets); replaces ``time``
    work: Callable[[Mapping[str, Any]], float] | None = None
    work_params: tuple[str, ...] = ()

    def covers(self) -> set[str]:
        return set(self.time) | set(self.free) | set(self.memory_params) | set(self.work_params)

    def work_ratio(self, params: Mapping[str, Any], full: Mapping[str, Any]) -> float:
        """Time at ``params`` over time at the full tier's ``full``."""
        ratio = 1.0
        if self.work is not None and all(k in full for k in self.work_params):
            ratio = self.work(params) / max(self.work(dict(params, **{k: full[k] for k in self.work_params})), 1e-300)
        for name, law in self.time.items():
            if name in params and name in full:
                f = LAWS[law]
                ratio *= f(params[name]) / f(full[name])
        return ratio


def _ints(text: str) -> list[int]:
    """The integers of a comma-separated list parameter (``'10,30,100'``; ``'2x3x1'`` items give their product)."""
    out = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        try:
            out.append(math.prod(int(v) for v in item.replace("/", "x").split("x")))
        except ValueError:
            continue
    return out or [1]


def cube(n: int, bytes_per_point: float = 3 * F8) -> float:
    """A few arrays over {+-1}^n (table, transform, scratch): ``bytes_per_point`` * 2^n."""
    return bytes_per_point * 2.0 ** n


def signs(n: int) -> float:
    """sign_vectors(n).astype(int64) (2^n x n) plus three 2^n tables."""
    return F8 * (n + 3) * 2.0 ** n


def E(memory, note, time=None, free=(), memory_params=(), work=None, work_params=()):
    return Estimate(memory=memory, note=note, time=dict(time or {}), free=tuple(free), memory_params=tuple(memory_params),
                    work=work, work_params=tuple(work_params))


def loop(*names: str, per_iteration: float = 256.0) -> Estimate:
    """Parameters that only count iterations of a Python loop in the check (``range(p[name])`` is their
    only use there; tests/test_costs.py re-derives that from the source): time linear in each (nested:
    the product), memory not growing with them (Evidence keeps aggregates; measured peaks 0.07 MiB at
    thesis_ch4.lemma_A.13 instances = 5000 against 0.09 MiB at 500, seed001.lemma_16_softmax_ua flat
    likewise), modelled as ``per_iteration`` bytes each to stay conservative."""
    return E(lambda p: per_iteration * math.prod(p[n] for n in names),
             f"a loop of {' x '.join(names)} iterations, constant memory each", {n: "lin" for n in names})


_CH5_MAJ = "majority table over {+-1}^n, its Walsh-Hadamard transform and scratch (3 x 8 bytes x 2^n)"

#: claim id -> estimate of its cost from its resolved parameters
ESTIMATES: dict[str, Estimate] = {
    # ---- seed000 ---------------------------------------------------------------------------------------
    # sm_experiment: loss[:, idx] for ERM chunks of 500 samples is an (N, 500, n) float64 array, plus the
    # N x n Rademacher matrices; 74.5 GiB was the N x n part alone at N = n = 100000 (issue 19)
    "seed000.def_2.2": E(lambda p: F8 * p["N"] * p["n"] * 502 + F8 * 400 * (p["N"] + p["n"]),
                         "(N, 500, n) float64 ERM chunk plus N x n Rademacher matrices",
                         {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    "seed000.prop_2.3": E(lambda p: F8 * p["N"] * p["n"] * 502 + F8 * 400 * (p["N"] + p["n"]),
                          "(N, 500, n) float64 ERM chunk plus N x n Rademacher matrices",
                          {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    # _cor_a1_runs: Z is (n + test) x (dim + 1) float64 (a few copies); the l1 separator is an LP in n rows
    "seed000.cor_A.1": E(lambda p: 4 * F8 * (2 * p["n_max"] + p["test"]) * (p["dim"] + 2),
                         "(n + test) x (dim + 1) float64 design, 4 copies; LP on n rows",
                         {"n_max": "quad", "dim": "lin", "test": "lin"}),
    # ---- seed002 ---------------------------------------------------------------------------------------
    # st.draw(n // N prompts): x (n, d), t (n, q), y (n) for (N, d, q) up to (5, 2, 2) or (4, 3, 1)
    "seed002.definition_2": E(lambda p: 2 * F8 * p["n"] * 6, "prompts x tokens x (d + q + 1) draws, 2 copies",
                              {"n": "lin"}),
    # oracle MC: x (mc, N d) float64, its projection and gathers (4 copies), N <= N_max, d <= 4
    "seed002.theorem_6": E(lambda p: 4 * F8 * p["mc"] * 4 * p["N_max"] + F8 * (4 * p["N_max"]) ** 2 * 4,
                           "(mc, 4 N_max) float64 Monte Carlo draws, 4 copies",
                           {"N_max": "cubic", "mc": "lin"}),
    # standard_normal((samples, N, d)) with N <= 1000, d <= 5, squared copy
    "seed002.lemma_20": E(lambda p: 2 * F8 * p["samples"] * 1000 * 5, "(samples, 1000, 5) float64 normals, 2 copies",
                          {"samples": "lin"}),
    # U (directions, d) and the einsum output (directions, n, N) with N d <= 64
    "seed002.derived_oracle_ffn_risk": E(lambda p: 2 * F8 * p["directions"] * 64, "(directions, n, N) float64 einsum",
                                         {"directions": "lin"}),
    "seed002.proposition_21": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                                {"mc": "lin"}),
    "seed002.proposition_3": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                               {"mc": "lin"}),
    # ---- seed003 ---------------------------------------------------------------------------------------
    # idx (trials, m) with m ~ 40 d samples, the cube gathered at it (trials, m, d), parity tables (trials, 2^d)
    "seed003.definition_4": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) parity tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.definition_2": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.claim_1": E(lambda p: F8 * p["trials"] * p["r_sim"] * (2 ** p["d_sim"] + p["d_sim"]),
                         "(trials, r, 2^d) simulated Algorithm-2 tables",
                         {"trials": "lin", "r_sim": "lin", "d_sim": "exp2"}),
    # all datasets of m examples out of 2^(d+1) labelled points: (2^(d+1))^m of them for every (d, m)
    "seed003.algorithm_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                             work=lambda p: sum((2.0 ** (d + 1)) ** m for d in range(1, p["d_max"] + 1)
                                                for m in range(1, p["m_max"] + 1)), work_params=("d_max", "m_max")),
    "seed003.definition_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                              work=lambda p: sum((2.0 ** (d + 1)) ** s for d in range(1, p["d_max"] + 1)
                                                 for m in range(1, p["m_max"] + 1) for s in range(1, m + 1)),
                              work_params=("d_max", "m_max")),
    # ---- thesis_ch4 ------------------------------------------------------------------------------------
    # B = integers(0, 2, size=(random_b, T)) for every T up to T_max, then a Python loop over its rows
    "thesis_ch4.lemma_A.19": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    "thesis_ch4.lemma_A.20": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    # parity_class_draws(n = 8): (sets, m) samples and (sets, sigmas) sign draws
    "thesis_ch4.lemma_4.2": E(lambda p: 3 * F8 * p["sets"] * (p["m"] + p["sigmas"] * 2 ** 8 / 8),
                              "(sets, m) samples and (sets, sigmas) Rademacher draws over 2^8 functions",
                              {"sets": "lin", "m": "lin", "sigmas": "lin"}),
    # U, V (pairs, d) with d <= 64 drawn at random, projections and differences: ~6 such arrays
    "thesis_ch4.lemma_A.9": E(lambda p: 6 * F8 * p["pairs"] * 64, "(pairs, d <= 64) float64 pairs and projections, 6 copies",
                              {"pairs": "lin"}),
    # Maurey: choice (draws, k) int64 and atoms (draws, 12) float64, the comparison (draws, k) per coordinate
    "thesis_ch4.lemma_4.10": E(lambda p: F8 * p["maurey_draws"] * (2 * p["maurey_k"] + 3 * 12),
                               "(draws, k) choices and comparisons, (draws, 12) atoms",
                               {"ratio_max": "quad", "maurey_k": "lin", "maurey_draws": "lin"}),
    # ---- thesis_ch5 ------------------------------------------------------------------------------------
    "thesis_ch5.lemma_B.1": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "n_symmetric_max": "quad", "n_top": "quad"}),
    "thesis_ch5.lemma_B.2": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "k_max": "lin", "n_span": "lin", "log10_n_large": "exp10",
                               "search_restarts": "lin"}),
    "thesis_ch5.ltf_majority": E(lambda p: signs(p["n_max"]) + cube(p["n_max"]),
                                 "sign_vectors(n) as int64 (2^n x n) and LTF / majority transforms",
                                 {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.warmup_gradient": E(lambda p: cube(p["n_max"], 10 * F8), "popcounts, sums, h, its transform, chi_S and scratch over 2^n (measured 40 MiB at n = 19)",
                                    {"n_max": "nexp2", "k_max": "lin", "n_scaling_max": "quad"}),
    "thesis_ch5.eq_B.1": E(lambda p: 3 * F8 * 4.0 ** p["n_gram_max"] + cube(p["n_inverse_max"]),
                           "2^n x 2^n Gram matrix (3 copies) and 2^n inverse-transform tables",
                           {"n_gram_max": "exp4", "n_inverse_max": "nexp2"}),
    "thesis_ch5.sq_counting": E(lambda p: cube(p["n_max"], 3 * F8 + 2 * 36), "2^n spectrum as int64 and as Python ints",
                                {"n_max": "nexp2"}),
    "thesis_ch5.def_5.4": E(lambda p: signs(p["n"]), "sign_vectors(n) as int64 and 2^n function tables",
                            {"n": "nexp2", "draws": "lin"}),
    "thesis_ch5.noisy_parity": E(lambda p: 6 * F8 * p["mc_samples"] + signs(p["gap_n"]) + cube(p["n_max"]),
                                 "six length-mc_samples int64 arrays; 2^n x n cube at gap_n",
                                 {"mc_samples": "lin", "gap_n": "nexp2", "n_max": "nexp2"}, free=("delta",)),
    "thesis_ch5.fourier_gaps.ltf_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                              "population gradient and exact transforms over 2^n",
                                              {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.sinusoid_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                                   "population gradient and exact transforms over 2^n",
                                                   {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.random_ltf": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                            {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.fourier_gaps.sinusoid": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                          {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.disjoint_polynet.population_gradient": E(
        lambda p: cube(max(p["n_max"], p["n_fd_max"]), F8 * (max(p["n_max"], p["n_fd_max"]) + 4)),
        "population gradient over 2^n (n + 4 float64 per point)", {"n_max": "nexp2", "n_fd_max": "nexp2"}),
    "thesis_ch5.lemma_B.9": E(lambda p: cube(p["n_exhaustive_max"], F8 * (p["n_exhaustive_max"] + 4)),
                              "exhaustive cube formulas over 2^n",
                              {"n_exhaustive_max": "nexp2", "m_pm1_max": "quad", "m_gauss_max": "exp2",
                               "gauss_draws": "lin"}, free=("c_max",)),
    "thesis_ch5.lemma_B.3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                              {"n_max": "nexp2", "pairs": "lin"}),
    "thesis_ch5.lemma_B.4.claims_1-3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                                         {"n_max": "nexp2", "pairs": "lin", "draws": "lin"}),
    "thesis_ch5.lemma_B.4.claim_4.hoeffding": E(lambda p: cube(p["n_max_enum"], F8 * (p["n_max_enum"] + 4)),
                                                "enumeration over 2^n", {"n_max_enum": "nexp2", "n_big": "lin",
                                                                         "draws": "lin"}),
    # two-layer SGD trainings: (runs, width, n + 2) parameters and gradients, (boot, runs) bootstrap resamples
    "thesis_ch5.finding_5.1": E(
        lambda p: 3 * F8 * max(p["runs"], p["precision_runs"], p["ablation_runs"]) * p["width"] * (max(_ints(p["ns"])) + 2)
        + 2 * F8 * p["boot"] * max(p["runs"], p["precision_runs"], p["ablation_runs"]),
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"runs": "lin", "steps": "lin", "width": "lin", "batch": "lin", "boot": "lin", "precision_runs": "lin",
         "ablation_runs": "lin", "ablation_steps": "lin"}, free=("lr", "eval_every"), memory_params=("ns",)),
    # ---- thesis_ch6 ------------------------------------------------------------------------------------
    # popcounts(n) as int64 over 2^n and m sampled indices per resample
    "thesis_ch6.assumption_6.2": E(lambda p: cube(p["n"], 2 * F8), "popcounts(n) int64 over 2^n and sampled parities",
                                   {"n": "exp2", "resamples": "lin"}),
    # targets (trials,) and a Python loop over them, three times
    "thesis_ch6.warmup_sq": E(lambda p: 2 * F8 * p["trials"], "(trials,) int64 targets, a loop over them", {"trials": "lin"}),
    # ---- thesis_ch7 ------------------------------------------------------------------------------------
    # a loop over the moduli q <= p_max, each with q x q tables and q^3 logits (chunked): memory ~ 3 q^3
    # float64 at the largest q, time ~ sum_q q^3 ~ p_max^4 (all (a, b, c, k) up to p_exhaustive: ~ p^5)
    "thesis_ch7.all_frequencies_used": E(lambda p: 3 * F8 * max(p["p_max"], p["p_fft"]) ** 3, "q^3 float64 logits at the largest modulus",
                                         {"p_max": "quartic", "p_fft": "quartic"}),
    "thesis_ch7.cyclic_construction": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                        {"p_max": "quartic"}),
    "thesis_ch7.cyclic_game_all_p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                      {"p_max": "quartic", "p_exec": "quartic"}),
    "thesis_ch7.width_3p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                             {"p_max": "quartic"}),
    "thesis_ch7.intro_argmax_identity": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 tables at the largest modulus",
                                          {"p_max": "quartic", "p_exhaustive": "pow5"}),
    "thesis_ch7.theorem_7_7": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                {"p_max": "quartic", "p_opt": "quartic", "restarts": "lin"}),
    "thesis_ch7.single_neuron_optimum_cyclic": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                                 {"p_max": "quartic", "restarts": "lin"}),
    # ---- thesis_ch8 ------------------------------------------------------------------------------------
    # P (n, k, k), pi (n, k), chains x (n, t) int64, for k up to 5
    "thesis_ch8.icl_mc_data_model": E(lambda p: 2 * F8 * p["n"] * (p["t"] + 2 * 25), "(n, t) int64 chains and (n, 5, 5) transitions",
                                      {"n": "lin", "t": "lin"}),
    "thesis_ch8.ngram_extension": E(lambda p: 4 * F8 * p["n"] * (p["t"] + 8), "(n, t) int64 chains and per-order predictions",
                                    {"n": "lin", "t": "lin"}),
    # P (mc, 2, 2) transition matrices and their stationary laws; chains (chains, t) int64
    "thesis_ch8.proposition_8_2": E(lambda p: 3 * F8 * 6 * p["mc"] + 2 * F8 * p["chains"] * p["t"],
                                    "(mc, 2, 2) transition matrices and (chains, t) int64 chains",
                                    {"chains": "lin", "t": "quad", "mc": "lin"}, free=("c_scan",)),
    # P (n, k, k) for k up to max(k_list), its stationary vectors
    "thesis_ch8.unigram_strategy": E(lambda p: 3 * F8 * p["n"] * max(_ints(p["k_list"])) ** 2,
                                     "(n, k, k) transition matrices, 3 copies", {"n": "lin"},
                                     memory_params=("k_list",)),
}

#: reasons a claim's whole declared domain is cheap (tests/test_costs.py checks these two mechanically;
#: any other reason is a sentence from reading the check, listed in SAFE_BY_READING)
WITHIN_TESTED = ("every numeric parameter's declared maximum is at most DEFAULT_FACTOR x the largest value a tier runs, "
                 "and the full tier takes under a second: even 2^(max - full) growth stays under a few minutes")
ALL_VALUES_TESTED = "every parameter is a finite choice (or boolean) and some tier runs every choice"

#: reasons found by reading the claim's check (not mechanically checkable)
SAFE_BY_READING: dict[str, str] = {
    "seed002.corollary_27": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.theorem_7": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.assumption_1": "d_max only spans 25 geometric points of a closed form (gammaln): cost independent of d_max",
    "thesis_ch6.lemma_C.9.chain": "P only scales the nuisance features of psi (a number in the arithmetic of each case): "
                                  "cost independent of P",
    # part C
    "thesis_ch6.lemma_C.10": "n_max only bounds a doubling loop n = 50, 100, ... (at most 11 values up to 10^5) of scipy "
                             "binomial CDFs (O(1) each, 13 bisection steps): cost ~ log n_max, measured 10 s at 10^5",
    "thesis_ch6.proposition_6.3.frontier": "n_max only filters the fixed list n in (21, 51, 101, 301, 1001, 3001) of closed "
                                           "forms (a few exact binomials each): cost independent of n_max",
    "thesis_ch6.theorem_6.1.exponents": "n_max is only the upper end of two closed-form evaluations (exact binomials of "
                                        "n_max bits, milliseconds at 10^5): cost independent of n_max in practice",
    "thesis_ch6.theorem_C.16.precision": "n_max is only the upper end of two closed-form evaluations (exact binomials of "
                                         "n_max bits, milliseconds at 10^5): cost independent of n_max in practice",
    # part B
    "thesis_ch5.lemma_B.4.claim_4": "rho and n_factor only set the integer n fed to closed-form binomial tails (scipy "
                                    "binom.sf/cdf, cost independent of n) on fixed 2^k x 2^(k+1) grids, k in (2, 4): "
                                    "cost independent of both",
    # part A
    "seed001.theorem_6_softmax_icgd": "max_Dw only sets the largest of the ~sqrt(max_Dw) + 3 values D_w fed to a closed-form "
                                      "Fraction comparison (6 per D_w): at most ~600 comparisons over the declared domain",
}

ESTIMATES.update({
    "seed000.arch_4.1": loop("machines"),
    "seed000.def_D.5": loop("maps"),
    "seed001.def_11_softmax_block": loop("instances"),
    "seed001.lemma_16_softmax_ua": loop("samples"),
    "seed001.lemma_5_backprop_ewml": loop("instances"),
    "seed002.figure_1": loop("seeds", "rnn_seeds"),
    "seed002.lemma_40": loop("instances"),
    "thesis_ch4.def_4.4": loop("instances"),
    "thesis_ch4.lemma_A.13": loop("instances"),
    "thesis_ch4.lemma_A.14": loop("instances", "restarts"),
    "thesis_ch4.lemma_A.15": loop("instances"),
    "thesis_ch4.lemma_A.24": loop("instances"),
    "thesis_ch4.lemma_A.8": loop("instances"),
    "thesis_ch4.sec_4.4.2_remarks": loop("instances"),
    "thesis_ch6.lemma_C.4": loop("neurons"),
    "thesis_ch7.eq_D1_reduction": loop("samples"),
    "thesis_ch7.homogeneity_normalized_margin": loop("samples"),
    "thesis_ch7.max_min_reformulation": loop("samples"),
    "thesis_ch8.transformer_and_margin_loss": loop("cases"),
})

# ---- issue 19 audit, part B: thesis_ch4, thesis_ch5 ----
def _nums(text, cast=int) -> list:
    """The items of a comma-separated list parameter ('' -> []; unparseable items skipped)."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(cast(item.strip()))
        except ValueError:
            continue
    return out


def _triples(text, sep="x") -> list[tuple[int, ...]]:
    """'2x3x1,3x2x2' -> [(2, 3, 1), (3, 2, 2)] (unparseable items skipped)."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(tuple(int(v) for v in item.strip().lower().split(sep)))
        except ValueError:
            continue
    return out


def _polynet_horizon(k, n1, delta, eps) -> float:
    """Theorem 5.8's horizon T (the claim module's own function; a float bound when it cannot be computed)."""
    try:
        from .hidden_progress.polynet_sgd import horizon

        return float(horizon(int(k), int(n1), float(delta), float(eps)))
    except Exception:  # an invalid size: the check itself refuses it
        return 6.0 * math.log(2 * k / eps) * (3 * n1 - 2.0) ** (2 * k - 1) * 40


def _polynet_runs(p, delta=None, adversary=False) -> tuple[float, float]:
    """(work, bytes) of the thesis_ch5.thm_5.8 family: runs x sum over the kxn'xB sizes of T B k n' SGD
    sample-steps (x 2 for B = 1: the complementary-init runs) plus the exact final errors (2^(n'-1) k n'
    Fraction steps per run); memory: the ~310 recorded checkpoints of every run (cached for all sizes) and
    the (runs, 310, k, 2^(n'-1)) float error table of one size; adversary paths: T 2^(k n') k n' steps and
    a few length-T float64 arrays each."""
    delta = p["delta"] if delta is None else delta
    runs = p["runs"]
    work = mem = top = 0.0
    for size in _triples(p["sizes"]):
        if len(size) != 3:
            continue
        k, n1, b = size
        T = _polynet_horizon(k, n1, delta, p["eps"])
        work += runs * (T * b * k * n1 * (2 if b == 1 else 1) + 100.0 * k * n1 * 2.0 ** (n1 - 1))
        mem += 2 * F8 * runs * 310 * k * (n1 + 1)
        top = max(top, 10.0 * runs * 310 * k * 2.0 ** (n1 - 1))
    if adversary:
        for pair in _triples(p["adversary"]):
            if len(pair) != 2:
                continue
            k, n1 = pair
            T = _polynet_horizon(k, n1, delta, p["eps"])
            work += T * 2.0 ** (k * n1) * k * n1
            mem += 8 * F8 * T
    return max(work, 1.0), mem + top


def _cells(text) -> list[tuple[int, float]]:
    """thesis_ch5.grokking cells 'm:lambda' with '/'-lists (their product), unparseable items skipped."""
    out = set()
    for item in str(text).split(","):
        try:
            ms, ls = item.strip().split(":")
            out.update((int(m), float(lam)) for m in ms.split("/") for lam in ls.split("/"))
        except ValueError:
            continue
    return sorted(out)


def _printed(claim_id: str):
    from .registry import get_claim

    return get_claim(claim_id).printed


def _b4_n(p) -> float:
    """Lemma B.4's largest n = c k^4 rho^2 log(2k/eps) over its k <= k_max, eps >= 1e-15 (the printed rule)."""
    try:
        return float(max(_printed("thesis_ch5.lemma_B.4").n_rule(k, 1e-15, p["rho"]) for k in range(2, p["k_max"] + 1, 2)))
    except Exception:
        return 32.0 * p["k_max"] ** 4 * p["rho"] ** 2 * math.log(2e15 * p["k_max"])


def _b5_batch(p) -> float:
    """Lemma B.5's Hoeffding batch size B at (hoeff_tau, hoeff_n, 2 hoeff_pairs, delta = 0.1) (the printed rule)."""
    try:
        return float(_printed("thesis_ch5.lemma_B.5").batch(p["hoeff_tau"], p["hoeff_n"], 2 * p["hoeff_pairs"], 0.1))
    except Exception:
        return 32.0 / p["hoeff_tau"] ** 2 * math.log(80.0 * p["hoeff_n"] * p["hoeff_pairs"])


def _t57_work(p) -> float:
    """thesis_ch5.thm_5.7.full: exact block laws (2^(n'-1) sums per block, k blocks, per init and gamma),
    Monte Carlo block laws (mc_samples sums per block) and the plotted flows (12 per n')."""
    ks, nps, mks, mnps = _nums(p["ks"]), _nums(p["n_primes"]), _nums(p["mc_ks"]), _nums(p["mc_n_primes"])
    g = 1 + len(_nums(p["gammas"], float))
    exact = sum(k * n * 2.0 ** (n - 1) for k in ks for n in nps)
    mc = sum(k * (n + 10) * float(p["mc_samples"]) for k in mks for n in mnps)
    return p["inits"] * g * (exact + mc) + sum(24 * n * 2.0 ** (n - 1) for n in _nums(p["plot_n_primes"]))


def _t57_memory(p) -> float:
    mks, mnps = _nums(p["mc_ks"]), _nums(p["mc_n_primes"])
    nps = _nums(p["n_primes"]) + _nums(p["plot_n_primes"])
    mc = 2 * F8 * p["inits"] * max(mks) * p["mc_samples"] + p["mc_samples"] * max(mnps) if mks and mnps else 0.0
    return (2 * F8 * p["bootstrap"] * p["inits"] + mc + 8 * F8 * p["ingredient_draws"]
            + 4 * F8 * 5 * 2.0 ** (max(nps, default=2) - 1))


def _eq_b5_work(p) -> float:
    """thesis_ch5.eq_B.5: exact xi_k(n) are Fractions of n-bit integers (gcd ~ n^2 bit operations), over
    the odd n in [2(k+1)^2 + 1, + n_span] and 10^e + 1 (e <= log10_n_large) for even k <= k_max, plus the
    constants' Lemma B.1 weights at n = 2k^2 + 1, 20k^2 + 1 (exact up to 20000)."""
    w = 0.0
    for k in range(2, p["k_max"] + 1, 2):
        a = 2.0 * (k + 1) ** 2 + 1
        b = a + p["n_span"]
        w += (b**3 - a**3) / 6 + sum((10.0**e + 1) ** 2 for e in range(4, p["log10_n_large"] + 1))
    return w + sum(min(f * k * k + 1.0, 20000.0) ** 2 for k in range(1, p["k_max_constants"] + 1, 2) for f in (2, 20))


def _b1_asym_work(p) -> float:
    """thesis_ch5.lemma_B.1.asymptotic: Lemma B.1 weights W^k(n) at n = f k^2 + 1 (exact Fractions of
    n-bit integers up to n = 20000, ~n^2 each, mpmath beyond), and the search's 40 x 7 evaluations per restart."""
    fs = [2, 4, 10, 20, 50, 100][: p["n_factors"]]
    grid = sum(min(f * k * k + 1.0, 20000.0) ** 2 for k in range(1, p["k_max"] + 1, 2) for f in fs)
    return grid + p["search_restarts"] * 2 * 280 * 20000.0**2


_SYMBOLIC = "sympy expressions (no parameter-driven arrays)"

#: thesis_ch5.layerwise.training_L3 / _L4 (the same poly_mlp_sgd grid at depth 3 and 4)
_LAYERWISE_TRAINING = E(
    lambda p: 3 * F8 * (min(2.0 ** max(_nums(p["ns"]) + _nums(p["xavier_ns"]) + [1]), 65536) + 64000)
    * max(_nums(p["ns"]) + _nums(p["xavier_ns"]) + [1]),
    "evaluation set over min(2^n, 65536) points and batch chunks of 2000 x 32 samples",
    work=lambda p: p["seeds"] * (sum(n + 8.0 for n in _nums(p["ns"]) for _ in _nums(p["ks"]))
                                 + (_nums(p["ns"])[0] + 8.0 if p["sanity_k"] and _nums(p["ns"]) else 0.0)
                                 + sum(n + 8.0 for n in _nums(p["xavier_ns"]) for _ in _nums(p["ks"]))) or 1.0,
    work_params=("ns", "ks", "seeds", "sanity_k", "xavier_ns"))


ESTIMATES.update({
    # --- thesis_ch4 ---
    # C(T, s) selector heads for T = 8, 16, ..., T_max: each builds (T + 3)^2 weight matrices and is run on
    # m inputs; F (C(T, s), m) float64 holds their outputs
    "thesis_ch4.cor_4.9": E(lambda p: F8 * math.comb(p["T_max"], p["s"]) * p["m"] + 6 * F8 * (p["T_max"] + 3) ** 2,
                            "(C(T, s), m) float64 head outputs and (T + 3)^2 head weights",
                            work=lambda p: sum(math.comb(T, p["s"]) * ((T + 3.0) ** 2 + p["m"] * T)
                                               for T in (8, 16, 32, 64, 128, 256, 512, 1024) if T <= p["T_max"]),
                            work_params=("T_max", "m", "s")),
    # a while loop appending (A, C, m) tuples up to `instances`, one bounded minimisation each
    "thesis_ch4.cor_A.3": E(lambda p: 300.0 * p["instances"], "a list of instances tuples (A, C, m)", {"instances": "lin"}),
    # pairs of length-T softmax inputs (T <= T_max), T x T Jacobians for the first 300 pairs and at T_max
    "thesis_ch4.cor_A.7": E(lambda p: 4 * F8 * p["T_max"] ** 2, "T_max x T_max softmax Jacobians (4 copies)",
                            {"pairs": "lin", "T_max": "quad"}),
    # exact_proper_cover: exhaustive set cover over the subsets of K <= K_max functions
    "thesis_ch4.def_4.1": E(lambda p: F8 * p["K_max"] ** 2 * 8, "K x K distance tables; exhaustive cover over 2^K subsets",
                            {"instances": "lin", "K_max": "nexp2"}),
    # T_max random unit vectors in d = 192 ln T dimensions, their T x T Gram matrix and diag(b) (T x T)
    "thesis_ch4.defs_A.2.1": E(lambda p: 4 * F8 * p["T_max"] ** 2 + 2 * F8 * p["T_max"] * 200 * math.log(p["T_max"]),
                               "T x T Gram matrix, |G|, diag(b) and products; (T, 192 ln T) vectors",
                               {"T_max": "cubic"}),
    # per trial an (m_max, T) stream (float64 draws, bool), bisection with exact consistent-set counts,
    # for T in (16, ..., 10000) up to T_max
    "thesis_ch4.fig_4.2": E(lambda p: 2 * 9.0 * p["m_max"] * p["T_max"] + 64 * 2**20,
                            "(m_max, T) float64 draws and bool samples, 2 copies; 3-subset tables of the candidates",
                            {"trials": "lin", "T_max": "quad", "m_max": "nlogn"}),
    # forward_reference on (2000 + m_max, T + 1, d) float64 embeddings (X, concat, K, products) per training
    "thesis_ch4.fig_4.2.transformer": E(
        lambda p: 4 * F8 * (2000 + p["m_max"]) * (p["T_max"] + 1) * p["d"] + 2 * F8 * (2000 + p["m_max"]) * p["T_max"],
        "(2000 + m_max, T + 1, d) float64 embeddings, 4 copies, and int64 bit streams",
        {"T_max": "quad", "trials": "lin", "restarts": "lin", "steps": "lin", "d": "quad", "m_max": "nlogn"}),
    "thesis_ch4.fig_4.3": E(lambda p: 4 * F8 * (2000 + p["m"]) * (p["T"] + 1) * p["d"] + 2 * F8 * (2000 + p["m"]) * p["T"],
                            "(2000 + m, T + 1, d) float64 embeddings, 4 copies, and int64 bit streams",
                            {"T": "lin", "d": "quad", "m": "lin", "steps": "lin", "seeds": "lin"}),
    # parity_elimination_counts: C(T, 3) x 3 int64 subsets, chunk parities and masks per trial, T <= T_max
    "thesis_ch4.fig_4.4": E(lambda p: 64.0 * math.comb(p["T_max"], 3) + F8 * 96 * p["T_max"] + 2**10 * 200,
                            "C(T, 3) x 3 int64 subset table and its per-chunk parities",
                            {"trials": "lin", "T_max": "cubic", "train_steps": "lin"}),
    "thesis_ch4.lemma_4.7": E(lambda p: 8 * F8 * 8 * p["T_max"], "(T <= T_max, d <= 8) token matrices per instance",
                              {"instances": "lin", "T_max": "lin"}),
    # product_cover_gap: head outputs of all (K/2, K) score/value pairs, (K/2) x K x 2 float64, 5 copies
    "thesis_ch4.lemma_A.11": E(lambda p: 5 * F8 * p["K"] ** 2 + 4096.0 * p["instances"],
                               "(K/2, K, 1, 2) float64 head outputs of all pairs, 5 copies", {"K": "quad", "instances": "lin"}),
    # SLSQP on 2H variables for H = 1..H_max (a dense (2H)^2 Hessian approximation; ~H^3 per iteration)
    "thesis_ch4.lemma_A.12": E(lambda p: 8 * F8 * (2 * p["H_max"]) ** 2 + 4096.0, "SLSQP on 2H variables",
                               {"H_max": "quartic", "instances": "lin"}),
    # rademacher_linear_exhaustive: the 2^m x m sign matrix and its products with X (m x 3)
    "thesis_ch4.lemma_A.2": E(lambda p: signs(p["m_exh"]), "2^m x m sign matrix and 2^m products",
                              {"instances": "lin", "m_exh": "nexp2"}),
    # per (s <= 3, gamma, Delta): Cholesky of a T x T Gram matrix, (T, T + 3) positional vectors, (T + 1, T + 3)
    # embeddings evaluated on 2^s + 5 inputs
    "thesis_ch4.lemma_A.21": E(lambda p: 6 * F8 * (p["T_max"] + 3) ** 2, "T x T Gram, Cholesky factor, (T, T + 3) vectors and embeddings",
                               {"T_max": "cubic"}),
    # selector_head_det_p(T): (T + 3)^2 weight matrices, evaluated on 2^s patterns for s <= s_max
    "thesis_ch4.lemma_A.22": E(lambda p: 8 * F8 * (p["T"] + 3) ** 2, "(T + 3)^2 head weights and (T + 1, T + 3) embeddings",
                               {"s_max": "exp2", "T": "quad", "functions": "lin"}),
    # 60 bisection steps x 2^s patterns of (T + 1, T + 3) embeddings; memorisation nets with 2^s centres
    "thesis_ch4.lemma_A.23": E(lambda p: 8 * F8 * (p["T"] + 3) ** 2 + F8 * 4.0 ** p["s_max"] * 16,
                               "(T + 3)^2 head weights and embeddings; 2^s-centre memorisation nets",
                               {"s_max": "exp4", "T": "quad", "functions": "lin"}),
    # memorisation_net on (17 + z_draws) n perturbed points: hidden layers of 4 n d_f and 2 n units
    "thesis_ch4.lemma_A.25": E(lambda p: 3 * F8 * (17 + p["z_draws"]) * p["n_max"] * (4 * p["n_max"] * p["df_max"] + 2 * p["n_max"] + 2),
                               "(points, 4 n d_f) and (points, 2 n) float64 activations for (17 + z_draws) n points, 3 copies",
                               {"instances": "lin", "n_max": "cubic", "df_max": "quad", "z_draws": "lin"}),
    # selector_head_bag(T) for T in (16, 64, T_max): (T, T + 3) positional vectors, (T + 3)^2 weights, embeddings
    "thesis_ch4.prop_4.12": E(lambda p: 6 * F8 * (p["T_max"] + 3) ** 2, "(T + 3)^2 head weights, positional vectors and embeddings",
                              {"T_max": "quad"}),
    # selector_head_trainable_p(T): (T, 4) positional rows and (T + 1, 4) embeddings for T in (10, ..., 10^6) <= T_max
    "thesis_ch4.sec_4.5": E(lambda p: 8 * F8 * 4 * (p["T_max"] + 1), "(T + 1, 4) float64 embeddings, 8 copies", {"T_max": "lin"}),
    # per (M, s): categorical heads on fill M^s inputs ((T + 1) x (T + M + 1) context each), a memorisation net
    # with M^s centres in s <= 3 dimensions evaluated on the fill M^s head outputs
    "thesis_ch4.sec_A.2.4": E(
        lambda p: 4 * F8 * (p["T"] + 1) * (p["T"] + p["M_max"] + 1)
        + 3 * F8 * p["fill"] * p["M_max"] ** 3 * (14 * p["M_max"] ** 3 + 2),
        "(fill M^3, 12 M^3) and (fill M^3, 2 M^3) float64 net activations; (T + 1) x (T + M + 1) contexts",
        work=lambda p: sum(p["fill"] * M**s * ((p["T"] + 1.0) * (p["T"] + M + 1) + 16 * s * M**s)
                           for M in range(2, p["M_max"] + 1) for s in (1, 2, 3)),
        work_params=("M_max", "T", "fill")),
    # exact Fractions: (instances + 1) x (L_max + 1) layers; per L a product over up to L layers (~L^3 digits work)
    "thesis_ch4.thm_4.11": E(lambda p: 1000.0 * (p["instances"] + 1) * (p["L_max"] + 1), "(instances, L_max + 1) Fraction layer norms",
                             {"instances": "lin", "L_max": "cubic"}),
    # product_cover_gap on K score and K value parameters: head outputs (K, K, m, 2) float64, 5 copies;
    # (K, m T) scores and (K, m T, 2) values
    "thesis_ch4.thm_4.6": E(lambda p: 5 * F8 * p["K"] ** 2 * p["m"] * 2 + 4 * F8 * p["K"] * p["m"] * p["T"] * 3,
                            "(K, K, m, 2) float64 head outputs of all pairs, 5 copies; (K, m T, 2) values",
                            {"K": "quad", "m": "lin", "T": "lin"}),
    # --- thesis_ch5 ---
    # the SGD runs of Theorem 5.8 (shared by the four claims), their horizon T(k, n', delta, eps)
    "thesis_ch5.thm_5.8": E(lambda p: _polynet_runs(p)[1], "(runs, 310, k, n') checkpoints per size and the error table",
                            work=lambda p: _polynet_runs(p)[0], work_params=("sizes", "runs", "delta", "eps")),
    "thesis_ch5.thm_5.8.azuma": E(lambda p: _polynet_runs(p)[1], "(runs, 310, k, n') checkpoints per size and the error table",
                                  work=lambda p: _polynet_runs(p)[0], work_params=("sizes", "runs", "delta", "eps")),
    "thesis_ch5.thm_5.8.main": E(lambda p: _polynet_runs(p, delta=0.01)[1],
                                 "(runs, 310, k, n') checkpoints per size (delta = 0.01) and the error table",
                                 work=lambda p: _polynet_runs(p, delta=0.01)[0], work_params=("sizes", "runs", "eps")),
    "thesis_ch5.claim_B.11": E(lambda p: _polynet_runs(p, adversary=True)[1],
                               "(runs, 310, k, n') checkpoints per size; length-T adversarial paths",
                               work=lambda p: _polynet_runs(p, adversary=True)[0],
                               work_params=("sizes", "runs", "delta", "eps", "adversary")),
    "thesis_ch5.claim_B.12": E(lambda p: _polynet_runs(p, adversary=True)[1],
                               "(runs, 310, k, n') checkpoints per size; length-T adversarial paths and envelopes",
                               work=lambda p: _polynet_runs(p, adversary=True)[0],
                               work_params=("sizes", "runs", "delta", "eps", "adversary")),
    # poly_mlp_forward tables over {+-1}^n (int64 or Python ints) and their transforms, k' <= 4
    "thesis_ch5.constructions.low_degree": E(lambda p: 2.0 ** p["n_max"] * (F8 * (p["n_max"] + 6) + 200),
                                             "2^n x n cube, tables and transforms (some as Python ints)",
                                             {"n_max": "nexp2", "kprime_max": "lin", "trials": "lin"}),
    # _relu_net_table on {+-1}^(k+2) (a Python list of Fractions) for k <= k_max; the exact LP decision only for
    # k <= k_lp <= 2 (k_lp's declared maximum is the full tier's value); least squares for k in (2, 3, 4)
    "thesis_ch5.constructions.mlp_relu_width": E(lambda p: signs(p["k_max"] + 2) + 200 * 2.0 ** (p["k_max"] + 2),
                                                 "2^(k+2) x (k+2) cube and a list of Fractions over it",
                                                 {"k_max": "nexp2", "search_starts": "lin"}, free=("k_lp",)),
    # per n <= n_max: min(2^n - 1, subsets) masks, each a product of |S| factors over the 2^n x n cube
    "thesis_ch5.constructions.polynet": E(lambda p: signs(p["n_max"]), "2^n x n int64 cube and products",
                                          work=lambda p: sum(min(2.0**n - 1, p["subsets"]) * 2.0**n * n * n
                                                             for n in range(1, p["n_max"] + 1)),
                                          work_params=("n_max", "subsets")),
    # one_minus_ratio: exact route = binomial counts of n-bit integers (~n^2 per n', n' <= n_exact_max), float
    # route = scipy tails on a window of ~sqrt(n') levels; the gamma-slope part runs the float route at n_slope
    "thesis_ch5.cor_B.10": E(lambda p: F8 * p["n_exact_max"] ** 2 / 4 + 64 * F8 * math.sqrt(max(p["n_float_max"], p["n_slope"])),
                             "binomial counts of n-bit integers (exact route); sqrt(n')-long float tail windows",
                             {"n_exact_max": "cubic", "n_float_max": "lin", "n_float_points": "lin", "n_slope": "lin",
                              "gamma_points": "lin"}),
    "thesis_ch5.thm_5.7": E(lambda p: F8 * p["n_exact_max"] ** 2 / 4 + 64 * F8 * math.sqrt(p["n_float_max"]),
                            "binomial counts of n-bit integers (exact route); sqrt(n')-long float tail windows; "
                            "n_calibration only selects which computed points calibrate K",
                            {"n_exact_max": "cubic", "n_float_max": "lin", "n_float_points": "lin"}, free=("n_calibration",)),
    # sympy limits of (n/k)^k / C(n, k) for k <= k_max (polynomials of degree k), sandwich over m <= n_sandwich_max
    "thesis_ch5.disjoint_polynet.counting": E(lambda p: 64.0 * 2**20, _SYMBOLIC + "; k x n_sandwich_max interval checks",
                                              {"k_max": "quartic", "n_sandwich_max": "lin"}),
    # exact Fractions of n-bit integers; c_ratio is one Fraction factor of each comparison (cost independent)
    "thesis_ch5.eq_B.5": E(lambda p: 64.0 * 2**20 + 10.0**p["log10_n_large"] / 2,
                           "Fractions of n-bit integers (no arrays); c_ratio is a scalar factor of every comparison",
                           work=_eq_b5_work, work_params=("k_max", "n_span", "log10_n_large", "k_max_constants"),
                           free=("c_ratio",)),
    # train_two_layer(width 100) on every cell for all seeds at once: 3 (seeds, budget/eval_every) float64
    # curves per cell (kept for all cells) and (seeds, 100 (n + 2)) parameters with Adam state
    "thesis_ch5.grokking": E(
        lambda p: 3 * F8 * p["seeds"] * (p["budget"] / p["eval_every"] + 1) * max(len(_cells(p["cells"])), 1)
        + 5 * F8 * p["seeds"] * 100 * (p["n"] + 2),
        "3 (seeds, budget/eval_every) float64 curves per cell; (seeds, 100 (n + 2)) parameters, 5 copies",
        {"k": "lin"},
        work=lambda p: sum(p["seeds"] * (p["n"] + 1.0) * 100 * (32 * p["budget"] + p["budget"] / p["eval_every"] * (1000 + m))
                           for m, _ in _cells(p["cells"])) or 1.0,
        work_params=("n", "cells", "seeds", "budget", "eval_every")),
    # per (n:k size, lr): seeds sine neurons for budget 0.05/lr steps, ~2.5 budget snapshots of n + 2 floats per
    # run kept (parity and noise runs, float64), plus the extras (3 more (size, lr) cells at most per size)
    "thesis_ch5.hidden_progress.rho": E(
        lambda p: sum(2 * F8 * p["seeds"] * (2.5 * p["budget"] + 1) * (n + 2) for n, _ in (t for t in _triples(p["sizes"], ":") if len(t) == 2))
        * (len(_nums(p["lrs"], float)) + 3),
        "(seeds, 2.5 budget, n + 2) float64 snapshots of the parity and noise runs per (size, lr)",
        work=lambda p: sum(p["seeds"] * p["budget"] * 0.05 / max(lr, 1e-12) * 32 * (n + 1) * 2
                           for n, _ in (t for t in _triples(p["sizes"], ":") if len(t) == 2) for lr in _nums(p["lrs"], float) + [0.05] * 3) or 1.0,
        work_params=("sizes", "lrs", "seeds", "budget")),
    # multilinear degree of random z^2 nets over {+-1}^n (values square at every layer: Python ints beyond int64)
    "thesis_ch5.layerwise.degree_bound": E(lambda p: 2.0 ** p["n_max"] * (p["n_max"] + 8) * 64,
                                           "2^n x (n + widths) tables (object ints at depth), transforms",
                                           {"L_max": "exp4", "n_max": "nexp2", "trials": "lin"}),
    # sympy: the downstream polynomial in 2 variables has degree 2^(L-1): ~4^L terms, squared at each layer
    "thesis_ch5.layerwise.downstream_degree": E(lambda p: 64.0 * 2**20, _SYMBOLIC + " (bivariate, degree 2^(L-1))",
                                                work=lambda p: p["trials"] * sum(16.0**L for L in range(2, p["L_max"] + 1)),
                                                work_params=("L_max", "trials")),
    # every mask S of {+-1}^n: an exact population gradient over the 2^n points (4^n n per n), plus fd_checks
    # finite differences (two population losses over 2^n) at three masks
    "thesis_ch5.layerwise.gradient_vanishes": E(
        lambda p: signs(p["n_max"]) + 200 * 2.0 ** p["n_max"], "2^n x n sign vectors, layer outputs and Fractions over 2^n",
        work=lambda p: sum(p["trials"] * n * 4.0**n + p["fd_checks"] * 6 * n * 2.0**n for n in range(3, p["n_max"] + 1)),
        work_params=("n_max", "trials", "fd_checks")),
    "thesis_ch5.layerwise.single_layer": E(lambda p: signs(p["n_max"]) + 8 * F8 * 2.0 ** p["n_max"],
                                           "2^n x n cube, width-4 tables and transforms; sympy in k variables",
                                           {"k_max": "cubic", "n_max": "nexp2", "trials": "lin"}),
    # poly_mlp_sgd (n <= 64, the statement's 20000-step budget): per seed and (n, k) config, steps x batch x n
    # and evaluations on min(2^n, 65536) points; k only picks the target (cost independent)
    "thesis_ch5.layerwise.training_L3": _LAYERWISE_TRAINING,
    "thesis_ch5.layerwise.training_L4": _LAYERWISE_TRAINING,
    # exact tables over {+-1}^n (Fractions / Python ints in lists) for n <= n_max; random (2, 1) nets on n = 6
    "thesis_ch5.layerwise.width_2_1": E(lambda p: 2.0 ** p["n_max"] * (p["n_max"] + 8) * 64,
                                        "2^n-long object tables and lists over the cube", {"n_max": "nexp2", "random_nets": "lin"}),
    # Lemma B.1 weights as exact Fractions; limit_proofs sympy limits of growing degree
    "thesis_ch5.lemma_B.1.asymptotic": E(lambda p: 64.0 * 2**20, "Fractions of n-bit integers (n <= 20000) and sympy limits",
                                         {"limit_proofs": "quad"}, work=_b1_asym_work,
                                         work_params=("k_max", "n_factors", "search_restarts")),
    # per odd n <= n_max: the exact spectrum (Krawtchouk sums of n-bit integers) and n/2 sympy ratios
    "thesis_ch5.lemma_B.2.ratio": E(lambda p: F8 * p["n_max"] ** 2, "exact spectra of Maj_n (n Fractions of n bits)",
                                    {"n_max": "quartic"}),
    # _Support(k, n): the irrelevant sum's central range, 8 sqrt(n) + 1 points with n = c k^4 rho^2 log(2k/eps);
    # features (k + 1, 8 sqrt(n), r) and the hinge terms; the LP is binned (400 bins)
    "thesis_ch5.lemma_B.4": E(lambda p: 6 * F8 * (p["k_max"] + 1) * (8 * math.sqrt(_b4_n(p)) + 1) * 2 * p["k_max"],
                              "(k + 1, 8 sqrt(n), r) float64 features over the binomial support, 6 copies; "
                              "k_max and eps_min_exp cannot exceed the full tier's values (their declared maxima)",
                              {"rho": "lin"}, free=("k_max", "eps_min_exp")),
    # exact elimination on (k + 1) x k Fraction systems for even k <= k_max; draws x k least squares, starts
    # Nelder-Mead runs for k in (2, 4, 6)
    "thesis_ch5.lemma_B.4.claim_5": E(lambda p: 64.0 * 2**20 + 4 * F8 * p["draws"] * 8, "Fraction systems; (draws, k <= 6) biases",
                                      {"k_max": "pow5", "draws": "lin", "starts": "lin"}),
    # Monte Carlo cover: inits x r/2 ~ (2k - 1) 2^k log(k/delta) pair draws in 4e6-entry chunks; Hoeffding
    # batches (B, hoeff_n) and (B, 2 pairs) float32 per trial, (bisect + 2) rounds; exact gradients over 2^hoeff_n
    "thesis_ch5.lemma_B.5": E(lambda p: 6 * F8 * 4e6 + 3 * 4 * _b5_batch(p) * (p["hoeff_n"] + 4 * p["hoeff_pairs"])
                              + 100.0 * 2 ** p["hoeff_n"] * 2 * p["hoeff_pairs"],
                              "4e6-entry Monte Carlo chunks, (B, n + 2r) float32 batches, exact gradients over 2^hoeff_n",
                              {"hoeff_n": "nexp2", "hoeff_pairs": "lin", "hoeff_tau": "inv2", "hoeff_trials": "lin",
                               "bisect": "lin"},
                              work=lambda p: p["inits"] * sum(k * k * 2.0**k for k in range(2, p["k_max"] + 1, 2)),
                              work_params=("k_max", "inits")),
    # _lemma_b8_data (shared by the two claims): per k <= k_max the families of `inits` initialisations
    # (thresholds, flow times, Maclaurin Fractions), then full flows over the cube for k n' <= n_full_max
    "thesis_ch5.lemma_B.8": E(lambda p: F8 * p["inits"] * p["k_max"] * 64 * 4 + cube(p["n_full_max"], F8 * (p["n_full_max"] + 8)),
                              "(inits, k, levels) flow tables per family; full flows over 2^(k n') points",
                              {"k_max": "cubic", "inits": "lin", "n_full_max": "nexp2", "full_inits": "lin"}),
    "thesis_ch5.lemma_B.8.blowup_time": E(
        lambda p: F8 * p["inits"] * p["k_max"] * 64 * 4 + cube(p["n_full_max"], F8 * (p["n_full_max"] + 8)),
        "(inits, k, levels) flow tables per family; full flows over 2^(k n') points (the data of thesis_ch5.lemma_B.8)",
        {"k_max": "cubic", "inits": "lin", "n_full_max": "nexp2", "full_inits": "lin"}),
    # neurons for n = 4..n_max, 4 families, k <= 4, `draws` each: tables and transforms over 2^n
    "thesis_ch5.prop_B.7": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 6)), "tables, transforms and gradients over 2^n",
                             {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.prop_B.7.proof_step": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 6)), "tables, transforms and gradients over 2^n",
                                        {"n_max": "nexp2", "draws": "lin"}),
    # fixed instances (n <= 10): (trials, 2^n) int64 multinomial batch counts and their float products, per
    # bisection step; delta only sets the batch size B (a multinomial row costs 2^n draws whatever B) and
    # confidence only the Clopper-Pearson bounds
    "thesis_ch5.prop_B.7.sample_complexity": E(lambda p: 3 * F8 * p["trials"] * 1024, "(trials, 1024) int64 batch counts, 3 copies",
                                               {"trials": "lin", "bisect": "lin"}, free=("delta", "confidence")),
    # the existing estimate (thesis_ch5 block above) plus k: the parity degree only changes the labels (O(k) per
    # sample); every run stops at the `steps` budget
    "thesis_ch5.random_search.width": E(
        lambda p: 3 * F8 * p["runs"] * max(_ints(p["widths"])) * (p["n"] + 2) + 2 * F8 * p["boot"] * p["runs"],
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples; k only sets the "
        "parity's degree (labels O(k) per sample, runs bounded by `steps`)",
        {"n": "lin", "runs": "lin", "steps": "lin", "batch": "lin", "boot": "lin"}, free=("lr", "eval_every", "k"),
        memory_params=("widths",)),
    # the existing estimate plus envelope: one LP lower envelope per n:k:r triple (odd n <= 15, r <= 256) over 2^n
    "thesis_ch5.thm_5.5": E(lambda p: signs(p["n"]) + 3 * F8 * p["r"] * 2.0 ** p["n"]
                            + max((3 * F8 * r * 2.0**n for n, _, r in (t for t in _triples(p["envelope"], ":") if len(t) == 3)),
                                  default=0.0),
                            "sign_vectors(n) and (2^n, r) activations; (2^n, r) envelope LPs",
                            {"n": "nexp2", "r": "lin", "inits": "lin", "t_fraction": "lin", "eps": "inv2"},
                            work=lambda p: 1.0 + sum(n * 2.0**n * r for n, _, r in (t for t in _triples(p["envelope"], ":")
                                                                                    if len(t) == 3)) / 1e6,
                            work_params=("envelope",)),
    # NTK embeddings on {+-1}^n, n = 6, 8, ..., n_max, k in (2, 3): a hinge infimum over 2^n points per |S| = k
    "thesis_ch5.thm_5.6": E(lambda p: F8 * 2.0 ** p["n_max"] * (3 * 64 + math.comb(p["n_max"], 3)),
                            "(2^n, D <= 64) embeddings and a 2^n label table per subset", {"n_max": "exp4", "draws": "lin"}),
    "thesis_ch5.thm_5.6.dimension_free": E(lambda p: F8 * 2.0 ** p["n_max"] * (3 * 64 + math.comb(p["n_max"], 3)),
                                           "(2^n, D <= 64) embeddings and a 2^n label table per subset",
                                           {"n_max": "exp4", "draws": "lin"}),
    # the existing estimate's time laws (bootstrap, ingredient_draws) plus the list parameters (work) and the
    # (inits, k, mc_samples) float64 Monte Carlo block sums the old memory model missed
    "thesis_ch5.thm_5.7.full": E(_t57_memory, "(inits, k, mc_samples) float64 Monte Carlo block sums, (bootstrap, inits) "
                                 "resamples, 2^(n'-1) exact block laws",
                                 {"bootstrap": "lin", "ingredient_draws": "lin"}, work=_t57_work,
                                 work_params=("ks", "n_primes", "gammas", "mc_ks", "mc_n_primes", "plot_n_primes", "inits",
                                              "mc_samples")),
    # readout SGD: runs x sum_{T = 2^j <= 2^log2_t_max} T steps per instance and radius; per-run averages only
    "thesis_ch5.thm_B.6": E(lambda p: 8 * F8 * p["runs"] * 4, "(runs,) seeds and averages per horizon",
                            {"runs": "lin", "log2_t_max": "exp2"}),
})

# ---- issue 19 audit, part A: seed000, seed001, seed003 ----
KIB, MIB = 1024.0, 2.0**20


def _words(d: int) -> int:
    """64-bit words of a packed GF(2) row of d bits."""
    return -(-max(int(d), 1) // 64)


def _floats(text: str) -> list[float]:
    """The numbers of a comma-separated list parameter (``'0.3,0.003'``); unparsable items are skipped."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(float(item))
        except ValueError:
            continue
    return out or [1.0]


def _pairs(text: str) -> list[tuple[int, int]]:
    """The (d, m) items of a ``'5:5,8:12'`` list parameter."""
    out = []
    for item in str(text).split(","):
        try:
            d, m = (int(v) for v in item.split(":"))
        except ValueError:
            continue
        out.append((d, m))
    return out or [(1, 1)]


def _parts(*terms):
    """work(params) of a check made of independent parts, with each part's value at the full tier given
    (``terms``: (function of the params, its value at the full tier)): the largest of the parts' ratios, the
    same upper bound as :func:`_parts_work` (which reads the reference values from the recorded run).  A part
    with a zero count in one parameter then no longer zeroes the others, as a product of laws would."""
    return lambda p: max(f(p) / full for f, full in terms)


def _tm_row(T: int) -> float:
    """One cached Appendix-C run (seed000 turing.run_all) of a machine drawn with horizon up to T (T / 2 on average):
    keep_layers stores up to 3 D-vectors per layer and step (numpy headers included), gaps 2 tuples per layer and
    step; the compiled weights as kernels.constructions.tm_transformer.compile_transformer bounds them (w + 4 layers of 6 D x D
    matrices); D = |Z| + 4|A| + 5 w + 5 <= 27 + 5 w for |Z| <= 6, |A| <= 4, w = bits of T."""
    w = max(int(T), 1).bit_length()
    D, L = 27 + 5 * w, w + 4
    return T / 2 * L * (24 * D + 900) + L * 48 * D * D + 40 * T


def _tm(kwargs_sets: int) -> Estimate:
    """seed000.turing claims: run_all caches (machines + 4) compiled runs per distinct compiler kwargs (the printed
    statement's and its mutants'), never freed within the process; each run is T decoder steps over w + 4
    layers attending over up to T cached keys (T^2 (w+4) D^2 work; i_prime is a T^2 Python scan)."""
    def work(p):
        w = max(int(p["T_max"]), 1).bit_length()
        return (p["machines"] + 4) * p["T_max"] * (p["T_max"] + p["m_max"]) * (w + 4) * (27 + 5 * w) ** 2
    return E(lambda p: kwargs_sets * (p["machines"] + 4) * (_tm_row(p["T_max"]) + 8 * p["m_max"] * (27 + 5 * p["T_max"].bit_length())),
             f"{kwargs_sets} cached sets (printed and mutant compiler kwargs) of (machines + 4) runs, each T_max steps x "
             "(w + 4) layers of kept D-vectors plus the compiled D x D weights (tracemalloc: 112 MiB against 293 at the "
             "full tier, 29 against 44 at machines = 4, T_max = 64, mutants included)",
             work=work, work_params=("machines", "T_max", "m_max"))


#: memory per interpolation interval H of one executed ICGD block (kernels.constructions.gd_transformer: (pairs x H) ReLU
#: heads of q x D query/key matrices and their (T x T) scores) for the small instances of seed001 (N <= 3, K <= 3,
#: n <= 8): measured 29 KiB (lemma_6_s_error, H = 1024) and 52 KiB (appendix_h_score, n = 16, H = 2048)
_ICGD_PER_H = 64 * KIB
_ICGD_NOTE = "(pairs x H) ReLU attention heads of one ICGD block, 64 KiB per interval (measured 29-52 KiB)"


def _icgd_grid(fixed: int) -> Estimate:
    """seed001 construction claims over an ``H_grid``: ``fixed`` fixed cases plus ``instances`` random ones, each
    run at every H of the grid (one block's heads alive at a time)."""
    return E(lambda p: _ICGD_PER_H * max(_ints(p["H_grid"])), _ICGD_NOTE + ", at the largest H of H_grid",
             work=lambda p: (p["instances"] + fixed) * sum(_ints(p["H_grid"])), work_params=("H_grid", "instances"))


def _eps_search_cost(eps: float) -> float:
    """_search_H doubles H from 4 until the corrected bound (~ (R/H)^2) is <= eps, up to 4096: cost ~ 2 H_needed,
    H_needed ~ 1/sqrt(eps) (the constant taken small, so that the cap is reached late: conservative ratios)."""
    return min(8192.0, 4.0 + 2.0 / math.sqrt(max(abs(eps), 1e-300)))


ESTIMATES.update({
    # ---- seed000: toy margins (sm_approximation/toy.py) ----
    # min_flip_radius over d + 4 starts x 7 d parameters (the round-parameter mutant), a Python loop over d layers
    # per margin evaluation, for d = 1, 2, 4, ..., d_max; exact corners only up to d = 8
    "seed000.claim_3.5": E(lambda p: 12 * F8 * (p["d_max"] + 4) * 7 * p["d_max"] + MIB,
                           "(d + 4, 7 d) attack buffers (6 copies) and the reverse-mode tape over d layers",
                           {"d_max": "cubic"}),
    "seed000.toy_product_margin": E(lambda p: 20 * 2 * F8 * p["d_max"] + MIB,
                                    "(2, d) attack buffers and cumulative products", {"d_max": "quad"}),
    # ---- seed000: the Appendix-C transformer (sm_approximation/turing.py) ----
    "seed000.claim_C.4": _tm(2), "seed000.claim_C.5": _tm(2), "seed000.claim_C.6": _tm(2),
    "seed000.lemma_C.1": _tm(2), "seed000.lemma_C.2": _tm(2), "seed000.lemma_C.3": _tm(4),
    "seed000.lemma_C.7": _tm(2), "seed000.lemma_C.8": _tm(2), "seed000.proof_4.1_assembly": _tm(2),
    "seed000.setup_C.1": _tm(3), "seed000.theorem_4.1": _tm(3),
    # ---- seed000: circuits (sm_approximation/circuits.py, bounds.py, margin_d6.py) ----
    # random_circuits(count, fixed small m, q, r) builds the list of circuits, then one loop over it (exact
    # Fraction nets of at most a few hundred entries each)
    "seed000.classes_G_F": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 6, q <= 8, r <= 6)",
                             {"circuits": "lin"}),
    "seed000.cond_D.3_D.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 5)",
                              {"circuits": "lin"}),
    "seed000.def_2.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 5, q <= 5, r <= 4)",
                         {"circuits": "lin"}),
    "seed000.lemma_2.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 4)",
                           {"circuits": "lin"}),
    # a Python loop of `samples` single round blocks, then the circuit loop
    "seed000.def_D.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits; the samples loop keeps nothing",
                         work=_parts((lambda p: p["samples"], 1000), (lambda p: p["circuits"], 30)),
                         work_params=("samples", "circuits")),
    # _nice_samples: circuits x blocks x samples perturbations; _adversarial_nice: restarts of a fixed search
    "seed000.def_D.2": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits and one row per block",
                         work=_parts((lambda p: p["circuits"] * p["samples"], 20 * 150), (lambda p: p["restarts"], 8)),
                         work_params=("circuits", "samples", "restarts")),
    # _instances keeps (circuit, exact net, X, constants) for 2 ID chains + circuits random ones (m <= 3, q <= 5, r <= 3)
    "seed000.lemma_D.9": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets and their constants",
                           work=lambda p: p["circuits"] + 2, work_params=("circuits",)),
    "seed000.lemma_D.7": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    "seed000.lemma_D.8": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    # D (perturbations, p <= 400 parameters) float64 directions, its sum with theta and batched_forward's activations
    "seed000.theorem_D.6": E(lambda p: 64 * KIB * (p["circuits"] + 2) + 2 * F8 * 240 * p["perturbations"],
                             "(perturbations, p <= 240) float64 directions, 2 copies (measured 29 MiB against 74 at 20000); (circuits + 2) compiled nets",
                             work=lambda p: (p["circuits"] + 2) * (p["perturbations"] + 1000),
                             work_params=("circuits", "perturbations")),
    # th, xt, th2, al, rho: (cases, dim + 1) float64; a Python loop of two attacks per case
    "seed000.eq_2.1": E(lambda p: 6 * F8 * p["cases"] * (p["dim"] + 2), "(cases, dim + 1) float64 parameters and inputs, 6 copies",
                        {"cases": "lin", "dim": "lin"}),
    # 3 grid + 1 Fractions, four times
    "seed000.eq_2.2": E(lambda p: 3 * 200.0 * p["grid"], "3 grid + 1 Fractions", {"grid": "lin"}),
    # zs: 3 grid + 1 Fractions through an exact (object) round block, a few Fractions per row
    "seed000.prop_3.4": E(lambda p: 3 * 800.0 * p["grid"], "(3 grid + 1) rows of Fractions through an exact round block",
                          {"grid": "lin"}),
    # per circuit (m <= m_max, q <= q_max, widths <= r_max): exact (object) activations of every layer on {0,1}^n_in
    "seed000.lemma_B.1": E(lambda p: 100.0 * 2.0 ** max(p["m_max"], p["r_max"]) * (4 * p["r_max"] + p["m_max"] + 4)
                           + 200.0 * p["circuits"] * p["q_max"] * p["r_max"],
                           "exact (object) layer activations over {0,1}^max(m, r); the list of circuits",
                           {"circuits": "lin", "m_max": "exp2", "q_max": "lin", "r_max": "quad"}),
    # depth_sweep: min_flip_radius over 8 inputs x restarts rows of p ~ 3 q r^2 parameters (6 buffers)
    "seed000.lemma_3.3": E(lambda p: 6 * F8 * 8 * p["restarts"] * 3 * p["q_max"] * (p["random_r"] + 1) ** 2 + MIB,
                           "(8 restarts, p ~ 3 q (r + 1)^2) attack buffers, 6 copies (p measured 21k-35k at q = 129-200, r = 8)",
                           {"q_max": "quad", "random_r": "quad", "restarts": "lin", "steps": "lin"}),
    # width-2 circuits of depth q = 2, 3, 5, 9, ..., q_max: exact nets of ~ 4 q small layers
    "seed000.text_norm_vc": E(lambda p: 2e4 * p["q_max"], "exact nets of depth ~ 2 q (small layers)", {"q_max": "quad"}),
    # circuits (fixed sizes), ID chains up to q_max, fan-out circuits up to width r_max (r x r exact matrices)
    "seed000.theorem_3.1": E(lambda p: 16 * KIB * p["circuits"] + 2e4 * p["q_max"] + 1000.0 * p["r_max"] ** 2,
                             "exact (Fraction) r x r fan-out layers, ID chains of depth q, the list of circuits",
                             {"circuits": "lin", "q_max": "quad", "r_max": "cubic"}),
    # ---- seed001 (icl_deep_gd) ----
    "seed001.appendix_g_experiments": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"prompts": "lin", "blocks": "lin", "H": "lin"}),
    # one block on a prompt of n examples: heads ~ H, scores (heads, n + 1, n + 1)
    "seed001.appendix_h_score": E(lambda p: p["H"] * (30 * KIB + 200.0 * (p["n"] + 1) ** 2),
                                  "(pairs x H) ReLU heads and their (n + 1)^2 scores (measured 107 MiB at n = 16, H = 2048)",
                                  {"n": "quad", "H": "lin"}),
    "seed001.corollary_1_1_trajectory": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"blocks": "lin", "H": "lin"}),
    "seed001.lemma_6_s_error": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE + " (measured 30 MiB at H = 1024)",
                                 work=lambda p: (p["instances"] + 1) * p["H"], work_params=("instances", "H")),
    "seed001.problem_2_spec": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE,
                                {"blocks": "lin", "instances": "lin", "H": "lin"}),
    "seed001.lemma_2_forward": _icgd_grid(3),
    "seed001.lemma_3_derivative": _icgd_grid(3),
    "seed001.lemma_4_loss_mlp": _icgd_grid(3),
    "seed001.theorem_1_construction": _icgd_grid(3),
    # per (instance, eps): a search over H = 4, 8, ..., at most 4096 (its cap), one block alive at a time
    "seed001.theorem_2_informal": E(lambda p: _ICGD_PER_H * 4096, _ICGD_NOTE + ", H at most 4096 (the search's cap)",
                                    work=lambda p: p["instances"] * sum(_eps_search_cost(e) for e in _floats(p["eps_grid"])),
                                    work_params=("eps_grid", "instances")),
    # _matrix_vs_token_form: a loop over instances of fixed small sizes
    "seed001.def_6_ewml": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    "seed001.def_7_relu_attention": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    # 1-D trajectories of `steps` steps; `functions` D-dimensional trajectories of L steps (D small)
    "seed001.lemma_14_inexact_pgd": E(lambda p: 1 * KIB * (p["L"] + p["steps"]), "trajectories of L and steps points (small D)",
                                      work=_parts((lambda p: p["steps"], 50), (lambda p: (p["functions"] + 1) * p["L"], 13 * 200)),
                                      work_params=("steps", "L", "functions")),
    # networks with N <= 8 layers of width <= 6 (counts), sympy / finite differences on N <= max_N, K, d <= 3
    "seed001.lemma_15_dims": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 6); sympy expressions",
                               {"max_N": "quad", "max_width": "cubic", "exact_instances": "lin", "float_instances": "lin"}),
    "seed001.lemma_1_gradient": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 3); sympy expressions",
                                  {"max_N": "quad", "exact_instances": "lin", "float_instances": "lin"}),
    # pl_interpolant(H) evaluated on H * grid_per_interval points: a (points, H) pre-activation matrix, 2 copies
    "seed001.lemma_7_relu_sums": E(lambda p: 2 * F8 * max(_ints(p["H_grid"])) ** 2 * p["grid_per_interval"] + MIB,
                                   "(H grid_per_interval, H) float64 ReLU pre-activations, 2 copies",
                                   work=_parts((lambda p: sum(h * h for h in _ints(p["H_grid"])) * p["grid_per_interval"],
                                                (16 + 256 + 4096 + 65536 + 262144) * 32),
                                               (lambda p: (p["restarts"] + 1) * p["maxiter"], 13 * 60)),
                                   work_params=("H_grid", "grid_per_interval", "restarts", "maxiter")),
    # ---- seed003 (rcnn) ----
    # closed-form big-integer comparisons over k x d x (log2 1/eps, log2 1/delta) x 3 sample sizes
    "seed003.claim_2": E(lambda p: 2 * KIB * len(_ints(p["d_list"])) + MIB, "the d_list values; comparisons of big integers",
                         work=lambda p: p["k_max"] ** 2 * p["log2_inv_max"] ** 2
                         * sum(1 + math.log2(max(d, 2)) / 64 for d in _ints(p["d_list"])),
                         work_params=("k_max", "d_list", "log2_inv_max")),
    # k x dm^2 x log2_inv^2 x (4 + random_M) cases of exact integer arithmetic (integers of ~ 3k log2(4 dm) bits)
    "seed003.observation_1": E(lambda p: MIB, "one case at a time (Evidence keeps aggregates)",
                               work=lambda p: p["k_max"] ** 2 * p["dm_max"] ** 2 * (1 + math.log2(p["dm_max"]))
                               * p["log2_inv_max"] ** 2 * (4 + p["random_M"]),
                               work_params=("k_max", "dm_max", "log2_inv_max", "random_M")),
    # Ms: 3 s_max restart counts s^(c2 s^2) ln(2/delta) (c2 s^2 log2 s bits each) per constant; simulation in
    # chunks of 1000 x M <= 48 uniforms
    "seed003.corollary_2": E(lambda p: 3 * max(_ints(p["c2_list"])) * p["s_max"] ** 3 * math.log2(max(p["s_max"], 2)) / 8
                             + 1000 * 48 * 9.0,
                             "3 s_max big integers s^(c2 s^2) of up to c2 s^2 log2 s bits; (1000, M <= 48) uniforms",
                             work=_parts((lambda p: sum(_ints(p["c2_list"])) * p["s_max"] ** 4 * max(p["c_max"], 1), 6 * 40**4 * 32),
                                         (lambda p: p["trials"], 40000)),
                             work_params=("s_max", "c_max", "c2_list", "trials")),
    # per n <= n_max: weight-value sets of O(n) Fractions; `built` interpolants of <= 6 points
    "seed003.corollary_3": E(lambda p: 20 * KIB * p["n_max"], "weight-value sets of O(n_max) Fractions",
                             work=_parts((lambda p: p["n_max"] ** 2, 300**2), (lambda p: p["built"], 20)),
                             work_params=("n_max", "built")),
    # per s <= s_max: value closure (~ 24 s values), reachable_values (runs spec runs of depth ~ 4 s); all-codes
    # domain 3^(N + 1) ~ s^1.6 Fractions for s <= s_built
    "seed003.corollary_3.U_s": E(lambda p: 2000.0 * 3 ** ((p["s_built"] - 1).bit_length() + 5) + 100 * KIB * p["s_max"],
                                 "3^(N + 1) Fractions of the all-codes domain at s_built; value closures of O(s) values",
                                 work=_parts((lambda p: p["s_max"] ** 3, 64**3), (lambda p: p["runs"] * p["s_max"] ** 3, 4 * 64**3),
                                             (lambda p: p["s_built"] ** 3, 4**3)),
                                 work_params=("s_max", "runs", "s_built")),
    # 3^(N + 1) codes as Fractions (a dict of tuples) for N <= N_exhaustive; reachable values for s <= s_max
    "seed003.data_representation": E(lambda p: 400.0 * 3 ** (p["N_exhaustive"] + 1) + 100 * KIB * p["s_max"],
                                     "3^(N + 1) codes (Fraction -> digit tuple dict)",
                                     work=_parts((lambda p: 3.0 ** p["N_exhaustive"], 3.0**8),
                                                 (lambda p: p["runs"] * p["s_max"] ** 3, 6 * 8**3)),
                                     work_params=("runs", "s_max", "N_exhaustive")),
    # per d of d_list and m in {d, d + 10, 2d}: (instances, m) packed GF(2) rows, the elimination's copy
    "seed003.definition_3": E(lambda p: 4 * F8 * p["instances"] * 2 * max(_ints(p["d_list"])) * _words(max(_ints(p["d_list"])) + 1),
                              "(instances, 2 d) packed GF(2) rows at the largest d, 4 copies",
                              work=lambda p: p["instances"] * sum(4 * d * d * _words(d + 1) for d in _ints(p["d_list"])),
                              work_params=("d_list", "instances")),
    # Algorithm 1 run exactly on m <= m_max examples in dimension d <= d_max for every (m, d), datasets times
    "seed003.definition_5": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                              {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_1": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_2": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_4": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    # end to end per (m, d, dataset): Algorithm 1 at depth L ~ t = 21 + 9(m-1) + 5(d-1) + 2(m-1)(d-1), then 2^d
    # roll-outs (measured: 0.4-3 s per (m, d) at m <= 5, d <= 3, growing ~ m^2 d)
    "seed003.computation_phase": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                   "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                   {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    "seed003.lemma_2.computation": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                     "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                     {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    # datasets x (m, d) exact runs, machines fixed-size simulations, boundary flags: 2^d simulations per (m, d)
    "seed003.definition_6": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one exact run or simulation at a time",
                              work=_parts((lambda p: p["datasets"] * p["m_max"] ** 4 * p["d_max"] ** 3, 6 * 4**4 * 3**3),
                                          (lambda p: p["machines"], 200),
                                          (lambda p: p["m_max"] ** 3 * p["d_max"] * 2 ** p["d_max"], 4**3 * 3 * 8)),
                              work_params=("datasets", "machines", "m_max", "d_max")),
    # for ~ 20 values s <= s_max: 2 x 3^(N - 3) codes through f (N ~ log2 s digits: ~ s^1.6); grids loop
    "seed003.head_spec": E(lambda p: MIB, "a few Fractions per s (40 kept points)", {"s_max": "quad", "grids": "lin"}),
    # per machine (and per oracle machine, <= 6 reference conv layers): an l-layer comparison on an
    # (m + 1) x (d + 1 + l) grid, s-state case lists
    "seed003.layer_spec": E(lambda p: 2 * F8 * p["l_max"] * (p["m_max"] + 1) * (p["d_max"] + 1 + p["l_max"]) + MIB,
                            "per-layer records of one (m + 1) x (d + 1 + l) grid run",
                            work=lambda p: (p["machines"] + p["oracle"]) * p["l_max"] ** 2 * (p["m_max"] + 1) * (p["d_max"] + 1)
                            * p["s_max"], work_params=("machines", "oracle", "s_max", "m_max", "d_max", "l_max")),
    # patterns: up to `patterns` sign tuples of (tau - 1)(d + 1) <= m (d + 1) entries; the full Jacobian is
    # (cells x cells) for grids of at most jacobian_cells cells
    "seed003.lemma_3": E(lambda p: 400.0 * p["patterns"] + 2 * F8 * p["jacobian_cells"] ** 2 + MIB,
                         "the list of sign patterns; a (cells, cells) float64 Jacobian",
                         work=_parts((lambda p: p["patterns"] * p["m_max"] ** 4 * p["d_max"] ** 3, 128 * 5**4 * 4**3),
                                     (lambda p: p["jacobian_cells"] ** 2 * p["m_max"] * p["d_max"], 60**2 * 5 * 4)),
                         work_params=("m_max", "d_max", "patterns", "jacobian_cells")),
    # instances exact interpolants of n <= n_max points in d_in -> d_out; one of `patches` 3x3 patches (d_in = 9)
    "seed003.lemma_5": E(lambda p: 20 * KIB * (p["n_max"] * p["d_in_max"] * p["d_out_max"] + 9 * p["patches"]) + MIB,
                         "exact (Fraction) interpolant of the largest instance: O(n d_in d_out) weights",
                         work=_parts((lambda p: p["instances"] * p["n_max"] ** 3 * p["d_in_max"] ** 2 * p["d_out_max"],
                                      80 * 14**3 * 4**2 * 3),
                                     (lambda p: p["patches"] ** 3, 24**3)),
                         work_params=("instances", "n_max", "d_in_max", "d_out_max", "patches")),
    "seed003.lemma_6": E(lambda p: 20 * KIB * 6 * p["n_max"] + MIB, "exact interpolant of n_max points (d_in <= 3)",
                         {"domains": "lin", "draws": "lin", "n_max": "cubic"}),
    # closed forms for s = 1 .. s_max, one at a time
    "seed003.parameter_count": E(lambda p: MIB, "closed forms per s, nothing kept", {"s_max": "lin"}),
    # family: one (d + k) x words matrix per d; random: (T, d + k) packed rows with T = instances (or
    # instances * 256 / d above d = 256), elimination cost rows x pivots x words
    "seed003.gaussian_elimination.runtime": E(
        lambda p: max(4 * F8 * (max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * _words(d + 1)
                      for d in _ints(p["random_dims"]) + [1])
        + max(4 * F8 * (d + p["extra"]) * _words(d + 1) for d in _ints(p["family_dims"])),
        "(instances, d + extra) packed GF(2) rows at the worst d, 4 copies",
        work=lambda p: sum((d + p["extra"]) * d * _words(d + 1) for d in _ints(p["family_dims"]))
        + sum((max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * d * _words(d + 1)
              for d in _ints(p["random_dims"])),
        work_params=("family_dims", "random_dims", "instances", "extra")),
    # (replaces the entry above: rank_cases adds (trials, m) packed rows per (d, m) and an exact rank distribution)
    "seed003.gaussian_elimination.samples": E(
        lambda p: p["trials"] * max([max(_ints(p["dims"])) + max(_ints(p["log2_inv_delta"]))] + [m for _, m in _pairs(p["rank_cases"])])
        * (4 * F8 * _words(max([max(_ints(p["dims"]))] + [d for d, _ in _pairs(p["rank_cases"])]) + 1) + 2),
        "(trials, m) packed GF(2) rows, 4 copies, at the largest d + log2(1/delta) or rank case (measured 256 MiB against "
        "260 at trials = 20000, d = 128)",
        {"trials": "lin", "exact_d_max": "quad"}, free=("alpha",),
        work=lambda p: sum((d + j) * d * _words(d + 1) for d in _ints(p["dims"]) for j in _ints(p["log2_inv_delta"]))
        + sum(m * d * _words(d + 1) + d * m for d, m in _pairs(p["rank_cases"])),
        work_params=("dims", "log2_inv_delta", "rank_cases")),
})

#: claims with parameters whose whole declared domain is cheap (the reason says why); no default rule
SAFE: dict[str, str] = {
    **SAFE_BY_READING,
    "seed001.def_1_param_count": WITHIN_TESTED,
    "seed001.lemma_17_contextual_mapping": WITHIN_TESTED,
    "seed003.theorem_1": WITHIN_TESTED,
    "thesis_ch4.lemma_A.10": WITHIN_TESTED,
    "thesis_ch5.constructions.k_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.mlp_power_width": WITHIN_TESTED,
    "thesis_ch5.constructions.oscillating_polynomial": WITHIN_TESTED,
    "thesis_ch5.constructions.sinusoid": WITHIN_TESTED,
    "thesis_ch5.random_search.closed_form": WITHIN_TESTED,
    "thesis_ch6.lemma_C.15": WITHIN_TESTED,
    "thesis_ch6.theorem_C.11.width": WITHIN_TESTED,
    "thesis_ch6.theorem_C.16.one_step": WITHIN_TESTED,
    "thesis_ch7.all_irreps_used": ALL_VALUES_TESTED,
    "thesis_ch7.destructive_interference": WITHIN_TESTED,
    "thesis_ch7.general_group_theorem": WITHIN_TESTED,
    "thesis_ch7.group_game": WITHIN_TESTED,
    "thesis_ch7.lemma_D14": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D15": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D16": ALL_VALUES_TESTED,
    "thesis_ch7.parity_construction": WITHIN_TESTED,
    "thesis_ch7.parity_width_necessary": WITHIN_TESTED,
    "thesis_ch7.representation_background": ALL_VALUES_TESTED,
    "thesis_ch7.theorem_7_1_training": ALL_VALUES_TESTED,
    "thesis_ch8.eq_E6_constant_init": WITHIN_TESTED,
    "thesis_ch8.sec_8_3_2_corollaries": WITHIN_TESTED,
}


def uncovered(claim) -> list[str]:
    """The parameters of ``claim`` that neither an estimate nor a SAFE entry covers (the default rule's)."""
    if claim.id in SAFE:
        return []
    covered = ESTIMATES[claim.id].covers() if claim.id in ESTIMATES else set()
    return [p.name for p in claim.params if p.name not in covered and p.type is not bool and p.choices is None]


def _pending() -> frozenset[str]:
    from .registry import all_claims

    return frozenset(c.id for c in all_claims() if c.params and uncovered(c))


@lru_cache(maxsize=1)
def _full_seconds() -> dict[str, tuple[float, dict]]:
    """claim id -> (seconds, params) of the recorded full-tier run (empty if there is none)."""
    try:
        data = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if data.get("environment", {}).get("tier") not in ("full", "gpu"):
        return {}
    return {r["id"]: (float(r["seconds"]), dict(r.get("params") or {}))
            for r in data.get("results", []) if "id" in r and isinstance(r.get("seconds"), (int, float))}


#: claims that reuse, in the same process, a computation cached by another claim that the report runs first:
#: their recorded full-tier seconds omit that work (0.04 s against 45 s), so their calibration adds the
#: producer's recorded seconds (run alone, e.g. ``verify run``, they do the producer's work themselves)
SHARED_CACHE: dict[str, str] = {
    "thesis_ch5.claim_B.12": "thesis_ch5.claim_B.11",
    "thesis_ch5.lemma_B.8.blowup_time": "thesis_ch5.lemma_B.8",
    "thesis_ch6.pareto_frontier_experiment": "thesis_ch6.data_time_tradeoff",
}


def estimate(claim_id: str, params: Mapping[str, Any]) -> Cost | None:
    """The cost of running ``claim_id`` at ``params`` (None if it declares no estimate)."""
    est = ESTIMATES.get(claim_id)
    if est is None:
        return None
    seconds = None
    recorded = _full_seconds()
    rec = recorded.get(claim_id)
    if rec is not None:
        t_full, full = rec
        if claim_id in SHARED_CACHE:
            t_full += recorded.get(SHARED_CACHE[claim_id], (0.0, {}))[0]
        seconds = max(t_full, 0.01) * est.work_ratio(params, full)
    return Cost(memory_bytes=float(est.memory(params)), seconds=seconds, note=est.note)


def expected_seconds(claim_id: str, params: Mapping[str, Any]) -> float:
    """A rough run time of ``claim_id`` at ``params``, for ordering work (``python -m verify.report -j``,
    longest first): the time model where the claim declares one, else its recorded full-tier seconds, else 0."""
    cost = estimate(claim_id, params)
    if cost is not None and cost.seconds is not None:
        return cost.seconds
    return _full_seconds().get(claim_id, (0.0, {}))[0]


def _numeric_list_max(value) -> float | None:
    """The largest item of a comma-separated numeric list parameter (``'10,50,200'``, ``'2x3x1,3x2x2'``: the
    product of an ``x`` item), None for any other string."""
    if not isinstance(value, str) or not value.strip():
        return None
    top = None
    for item in value.split(","):
        try:
            v = math.prod(float(f) for f in item.strip().split("x"))
        except ValueError:
            return None
        top = v if top is None else max(top, v)
    return top


def _as_number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    return _numeric_list_max(value)


def _tier_max(tiers: Mapping[str, Mapping[str, Any]], name: str):
    values = [v for v in (_as_number(t[name]) for t in tiers.values() if name in t) if v is not None]
    return max(values) if values else None


def _fmt_seconds(s: float) -> str:
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.3g} days"


def refusal(claim_id: str, params: Mapping[str, Any], tiers: Mapping[str, Mapping[str, Any]], *,
            force: bool = False) -> str | None:
    """Why these parameter values must not run (None: they may).  ``tiers``: {tier: resolved params}."""
    if force:
        return None
    cost = estimate(claim_id, params)
    covered: set[str] = set()
    if cost is not None:
        covered = ESTIMATES[claim_id].covers()
        budget = memory_budget()
        if cost.memory_bytes is not None and cost.memory_bytes > budget:
            return (f"{claim_id}: these parameters need about {cost.memory_bytes / GIB:.1f} GiB ({cost.note}), over the "
                    f"memory budget of {budget / GIB:.1f} GiB (set VERIFY_MEMORY_BUDGET_GIB to raise it, or pass --force)")
        limit = time_budget()
        if cost.seconds is not None and cost.seconds > limit:
            return (f"{claim_id}: these parameters need about {_fmt_seconds(cost.seconds)} (scaled from the recorded full-tier "
                    f"run), over the time budget of {_fmt_seconds(limit)} (set VERIFY_TIME_BUDGET_HOURS to raise it, "
                    "or pass --force)")
    elif claim_id in SAFE:
        return None
    for name, raw in params.items():
        value = _as_number(raw)
        if name in covered or value is None:
            continue
        top = _tier_max(tiers, name)
        if top is not None and top > 0 and value > DEFAULT_FACTOR * top:
            shown = raw if value == raw else f"{raw!r} (largest item {value:g})"
            return (f"{claim_id}: argument '{name}' = {shown} is more than {DEFAULT_FACTOR:g}x the largest value any tier "
                    f"runs ({top}); this claim declares no cost estimate for it, so the cost of larger values is unknown "
                    "(pass --force to run it anyway)")
    return None


# ---- issue 19 audit, part C: thesis_ch6, thesis_ch7, thesis_ch8 ----
def _parts_work(cid: str, *parts: Callable[[Mapping[str, Any]], float]) -> Callable[[Mapping[str, Any]], float]:
    """``work`` for a check made of separate parts (each driven by its own parameters): the largest ratio of a
    part's cost at ``p`` to its cost at the recorded full-tier parameters.  The true ratio of the sum is a
    weighted mean of the parts' ratios, so the largest one bounds it from above whatever the (unknown) split
    of the full-tier seconds; a product of per-parameter laws would instead vanish when one part is switched
    off (``runs = 0``)."""
    def work(p):
        rec = _full_seconds().get(cid)
        full = dict(p, **{k: v for k, v in (rec[1] if rec else {}).items() if k in p})
        return max(f(p) / max(f(full), 1e-300) for f in parts)
    return work


def _k2_exact_bytes(t: int) -> float:
    """kernels.sequence.markov_icl.k2_exact_losses(t): (classes / 4, nodes) float64 weights, 3 temporaries, with
    ~t^2 run classes and 2 max(t/2 + 12, 48)^2 quadrature nodes (measured 43 / 201 / 859 MiB at t = 40 / 80 /
    120 against 41 / 196 / 847 MiB modelled): t^4 bytes, 86 GB at the kernel's t = 400."""
    n = max(int(t) // 2 + 12, 48)
    return 3 * F8 * (float(t) ** 2 / 4) * 2 * n * n


def _items(text) -> list[int]:
    return [int(v) for v in _ints(text)]


_SMALL = 64.0 * 2**20  # no parameter-driven array beyond a few MiB
_CH8_EXPECTED_T = "expected_T(t): t_tensor over ~t^2/2 quadrature nodes, chunked to 400000 node-positions (bounded memory), time ~ t^3"

ESTIMATES.update({
    # ---- thesis_ch6 ----
    # pareto_grid: train_two_layer for 2 inits x 4 widths x len(m_grid) sizes, seeds runs at once, steps SGD steps each
    # (data from the counter stream, no training set in memory); (seeds, P <= 128 x 22) parameter arrays
    "thesis_ch6.data_time_tradeoff": E(
        lambda p: F8 * p["seeds"] * 8 * 3000 + _SMALL, "(seeds, P) parameters and optimiser state of the width <= 128 nets",
        work=lambda p: p["seeds"] * p["steps"] * len(_items(p["m_grid"])), work_params=("seeds", "steps", "m_grid")),
    "thesis_ch6.pareto_frontier_experiment": E(
        lambda p: F8 * p["seeds"] * 8 * 3000 + _SMALL,
        "(seeds, P) parameters of the width <= 128 nets (the grid is cached from data_time_tradeoff: its recorded "
        "seconds are a cache hit, so the time scale is optimistic when run alone)",
        work=lambda p: p["seeds"] * p["steps"] * len(_items(p["m_grid"])), work_params=("seeds", "steps", "m_grid")),
    # rng.integers(0, C, size=(inits, r)) with r <= 360 and its comparison
    "thesis_ch6.exact_sparsity_remark": E(lambda p: 2 * F8 * p["inits"] * 400, "(inits, r <= 360) int64 draws and a bool copy",
                                          {"inits": "lin"}),
    # tanh_mlp_tables at width 3: D (3 (n + 2), 2^n) and the (2^n, 3, n) product, one WHT per row of D
    "thesis_ch6.lemma_C.1": E(lambda p: F8 * 2.0 ** p["n_max"] * (4 * 3 * (p["n_max"] + 2) + p["n_max"]),
                              "(3 (n + 2), 2^n) derivative tables and their (2^n, 3, n) product, sign_vectors(n)",
                              {"models": "lin"}, work=lambda p: (p["n_max"] + 2) * p["n_max"] * 2.0 ** p["n_max"],
                              work_params=("n_max",)),
    # WHT of Half_2m over 2^(2m) points (popcounts, table, transform, masks); exact Krawtchouk spectra up to m_max
    # (O(m^2) Fractions of O(m) bits per m: ~ m_max^4)
    "thesis_ch6.lemma_C.12": E(lambda p: 4 * F8 * 4.0 ** p["m_wht"] + 200.0 * p["m_max"] ** 2,
                               "popcounts, table and WHT over 2^(2 m_wht); (2m + 1)^2 Krawtchouk Fractions",
                               {"m_wht": "exp4", "m_max": "quartic"}),
    # one exact correlation_vector (n <= 12, blocked: O(2^(n-c)) memory) per neuron and grid point
    "thesis_ch6.lemma_C.13": E(lambda p: _SMALL, "a cube of n <= 12 per neuron (blocked population gradient)", {"neurons": "lin"}),
    "thesis_ch6.lemma_C.14": E(lambda p: _SMALL, "a cube of n <= 12 per neuron (blocked population gradient)", {"neurons": "lin"}),
    # itertools.combinations over all s-subsets of [n_enum] (~2^n_enum Python tuples, streamed); Fractions of
    # binomials for all (k, n, s) up to (k_max, n_max, n_max)
    "thesis_ch6.lemma_C.2": E(lambda p: _SMALL, "streamed subsets and exact binomial Fractions (no arrays)",
                              {"n_enum": "exp2", "n_max": "cubic", "k_max": "lin"}),
    # correlation_vector on n = s + 1 .. s + n_extra <= 21 (blocked, O(2^(n-c)) memory, time n 2^n); maj_hat
    # Fractions of s-bit binomials for 19 k's and s up to s_max
    "thesis_ch6.lemma_C.3": E(lambda p: _SMALL + F8 * 2.0 ** (17 + p["n_extra"]) / 64,
                              "blocked population gradients on n <= 17 + n_extra; exact binomial Fractions",
                              {"neurons": "lin", "n_extra": "exp2", "s_max": "cubic"}),
    # per_point (2^n, r = 20, n + 1) float64 and the temporaries of its product; one (2^n) multinomial and a
    # (2^n) x 20 (n + 1) product per resample
    "thesis_ch6.lemma_C.5": E(lambda p: 3 * F8 * 2.0 ** p["n"] * 20 * (p["n"] + 1),
                              "(2^n, 20, n + 1) float64 per-point gradients, 3 copies",
                              {"resamples": "lin", "n": "nexp2"}),
    # 3 x 2^n Python Fractions (psi, dpsi, psi2) per pair
    "thesis_ch6.lemma_C.7": E(lambda p: 3 * 3 * 200.0 * 2.0 ** p["n"], "3 lists of 2^n x 3 Python Fractions",
                              {"pairs": "lin", "n": "exp2"}),
    # marg, hinge (2^n, 64) float64 recomputed per sample; psi (2^n, 3); the search is restarts x 200 closed forms
    "thesis_ch6.lemma_C.8": E(lambda p: F8 * 2.0 ** p["n"] * (3 * 64 + 12) + 3 * F8 * 64 * p["m"],
                              "(2^n, 64) margins and hinge losses per sample, (m, 64) gathers",
                              {"samples": "lin", "n": "exp2"},
                              work=_parts_work("thesis_ch6.lemma_C.8", lambda p: p["samples"] * (2.0 ** p["n"] + p["m"]),
                                               lambda p: p["restarts"] + 1),
                              work_params=("m", "restarts")),
    # train_two_layer: tickets width-100 nets, then 2 x tickets x retrains width-5 nets, steps each (k only picks
    # the parity: runs stop at convergence or at `steps`, which the law bounds)
    "thesis_ch6.lottery_ticket_experiment": E(
        lambda p: 4 * F8 * p["tickets"] * (100 + 10 * p["retrains"]) * (p["n"] + 2) + 3 * F8 * 32 * 100 * p["tickets"] + _SMALL,
        "(runs, P) parameters and optimiser state, (runs, 32, width) batch work arrays; k is free (it only "
        "picks the target parity; every run is bounded by `steps`)",
        work=lambda p: p["steps"] * p["tickets"] * (100 + 10 * p["retrains"]) * (p["n"] + 2),
        work_params=("steps", "tickets", "retrains", "n"), free=("k",)),
    # X (C(n,3), 2^n) int64 stacked from a list, its Gram matrix (C^2 2^n); the ERM part loops trials x 7
    "thesis_ch6.parity_facts": E(lambda p: 2 * F8 * math.comb(p["n_gram"], 3) * 2.0 ** p["n_gram"] + _SMALL,
                                 "(C(n,3), 2^n) int64 parity rows, 2 copies",
                                 work=_parts_work("thesis_ch6.parity_facts", lambda p: p["trials"],
                                                  lambda p: math.comb(p["n_gram"], 3) ** 2 * 2.0 ** p["n_gram"]),
                                 work_params=("trials", "n_gram")),
    # zero_target_trajectory keeps all `steps` derivative tables D_t (2 (n + 2), 2^n) float64; one WHT per row
    # (two trajectories alive at once: k = 3's is built while k = 2's is still bound; measured 211 MiB against
    # 186 modelled at n_max = 12, steps = 100)
    "thesis_ch6.proposition_6.3": E(lambda p: F8 * 2.0 ** p["n_max"] * (2 * p["steps"] * 2 * (p["n_max"] + 2) + 8 * (p["n_max"] + 2)),
                                    "2 x steps x (2 (n + 2), 2^n) float64 derivative tables kept along the trajectories",
                                    work=lambda p: p["steps"] * (p["n_max"] + 2) * p["n_max"] * 2.0 ** p["n_max"],
                                    work_params=("steps", "n_max")),
    # comb(N, v) maj_hat(N, v)^2 for 10 v's and N <= N_max (N-bit integers): ~ N_max^2 .. N_max^3
    "thesis_ch6.rho_bounds": E(lambda p: _SMALL, "exact binomials of N_max bits (no arrays)", {"N_max": "cubic"}),
    # inits initialisations per width (cached, 5 widths, sum r = 1364 neurons of 9-sparse supports, ~30 words each);
    # training: seeds (<= inits) runs x widths <= r_train x m in {m_max / 4^j}: (m, r) hidden features, readout
    # epochs <= 3000 over them
    "thesis_ch6.theorem_C.11.one_step": E(
        lambda p: F8 * p["inits"] * 1364 * 16 + 4 * F8 * p["m_max"] * p["r_train"] + 3 * F8 * 4096 * 1024,
        "cached (inits, 1364) neuron supports and weights over the 5 widths, ~16 words each (measured 400 MiB against 625 "
        "modelled at inits = 3000, seeds = 3, r_train = 16, m_max = 2000); (m_max, r_train) hidden features, 4 copies",
        work=_parts_work("thesis_ch6.theorem_C.11.one_step", lambda p: p["inits"],
                         lambda p: min(p["seeds"], p["inits"]) * p["m_max"]
                         * sum(r for r in (4, 16, 64, 256, 1024) if r <= p["r_train"])),
        work_params=("inits", "seeds", "r_train", "m_max")),
    # exhaustive correlation vectors for n <= n_exhaustive (blocked, n 2^n), closed forms (n-bit Fractions) up to n_max
    "thesis_ch6.theorem_C.16.gap_ratio": E(
        lambda p: _SMALL + F8 * 2.0 ** p["n_exhaustive"] / 64, "blocked population gradients; exact Fractions",
        work=_parts_work("thesis_ch6.theorem_C.16.gap_ratio",
                         lambda p: min(p["n_exhaustive"], p["n_max"]) * 2.0 ** min(p["n_exhaustive"], p["n_max"]),
                         lambda p: float(p["n_max"]) ** 2),
        work_params=("n_exhaustive", "n_max")),
    # truncation_success_counts: per trial one stream of m <= 36697 samples x n <= 39 (int32 and int64 cumsums);
    # n_max only filters the fixed list (13, 19, 27, 39), all of which the full tier runs
    "thesis_ch6.theorem_C.16.sample_size": E(lambda p: 4 * F8 * 36697 * 39 + _SMALL,
                                             "one (36697, 39) sample stream and its partial sums (fixed sizes); n_max only "
                                             "filters the fixed list n in (13, 19, 27, 39)",
                                             {"trials": "lin"}, free=("n_max",)),
    # ---- thesis_ch7 ----
    # for every odd q <= p_max: the cyclic construction (~4q neurons) and its q^3 logits (chunked tensordot: m q^3)
    "thesis_ch7.condition_C1": E(lambda p: 3 * F8 * p["p_max"] ** 3 + F8 * 64 * p["p_max"] * 4 * p["p_max"],
                                 "q^3 float64 logits at the largest modulus and a (m, 64, q) chunk", {"p_max": "pow5"}),
    "thesis_ch7.fourier_identity_D3": E(lambda p: _SMALL, "sympy residuals (p_symbolic) and length-64 FFTs",
                                        {"samples": "lin", "p_symbolic": "exp4"}),
    # parity_single_max (cached, restarts L-BFGS runs) and random_nets / mixtures margin evaluations on a fixed cube
    "thesis_ch7.lemma_7_2": E(lambda p: _SMALL, "a fixed small parity cube; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_2", lambda p: p["random_nets"], lambda p: p["restarts"]),
                              work_params=("random_nets", "restarts")),
    "thesis_ch7.lemma_7_3": E(lambda p: _SMALL, "a fixed small parity cube; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_3", lambda p: p["mixtures"], lambda p: p["restarts"]),
                              work_params=("mixtures", "restarts")),
    "thesis_ch7.lemma_7_4": E(lambda p: _SMALL, "a fixed small parity cube, 3 perturbations per epsilon", {"epsilons": "lin"}),
    "thesis_ch7.lemma_7_5": E(lambda p: _SMALL, "Z7 and S3 tables; restarts optimisations",
                              work=_parts_work("thesis_ch7.lemma_7_5", lambda p: p["mixtures"], lambda p: p["restarts"]),
                              work_params=("mixtures", "restarts")),
    "thesis_ch7.lemma_7_6": E(lambda p: _SMALL, "Z7 and S3 tables; restarts L-BFGS optimisations", {"restarts": "lin"}),
    # groups are a finite choice (quick / full lists); per group and trial einsums over d^4 <= 10^4 entries
    "thesis_ch7.lemma_D10": E(lambda p: _SMALL, "irreps of the fixed groups (d <= 6)",
                              work=lambda p: p["basis_changes"] + 1, work_params=("basis_changes",)),
    "thesis_ch7.lemma_D11": E(lambda p: _SMALL, "coefficient matrices of the fixed groups", {"samples": "lin"}),
    "thesis_ch7.lemma_D12": E(lambda p: _SMALL, "coefficient matrices of the fixed groups", {"samples": "lin"}),
    # per group and tau (D.14 + taus random) a cached single_max_class_tau of `restarts` L-BFGS runs
    "thesis_ch7.lemma_D13": E(lambda p: _SMALL, "fixed groups (order <= 10); (taus + 1) x restarts optimisations",
                              work=lambda p: (p["taus"] + 1) * p["restarts"], work_params=("taus", "restarts")),
    # addition tables q = 3..p_max and random_tables random ones: q^2 neurons, quadratic_logits (q^2, min(64, q), q)
    # chunks and q^5 work each
    "thesis_ch7.memorizing_construction": E(lambda p: F8 * (p["p_max"] ** 4 + 6 * p["p_max"] ** 3),
                                            "(q^2, q, q) logit chunk of the q^2-neuron network, q^3 tables",
                                            work=lambda p: float(p["p_max"]) ** 6 / 6 + p["random_tables"] * float(p["p_max"]) ** 5,
                                            work_params=("p_max", "random_tables")),
    # parity_cube(n) (2^n x n) and its int64 products per sample, n <= n_max
    "thesis_ch7.parity_single_neuron_expectation": E(lambda p: 2 * F8 * 2.0 ** p["n_max"] * (p["n_max"] + 3),
                                                     "parity_cube(n) as (2^n, n) and the int64 products",
                                                     {"samples": "lin", "n_max": "exp2"}),
    # tier_runs is a choice (the trained runs); random_nets random networks of <= 8 neurons on its fixed moduli
    "thesis_ch7.regularized_exact_cyclic": E(lambda p: _SMALL, "q^3 logits of the tier's fixed moduli", {"random_nets": "lin"}),
    "thesis_ch7.theorem_7_8": E(lambda p: _SMALL, "the tier's fixed parity cubes; restarts optimisations", {"restarts": "lin"}),
    # single_neuron_max (restarts L-BFGS runs, O(order^2) per evaluation) for every group of order <= max_opt_order
    "thesis_ch7.theorem_7_9": E(lambda p: _SMALL + F8 * 3 * float(p["max_opt_order"]) ** 2,
                                "multiplication tables of the fixed groups (order <= 120)",
                                {"restarts": "lin", "max_opt_order": "cubic"}),
    "thesis_ch7.uniform_tau_sign_rep": E(lambda p: _SMALL, "S3 and S4 tables; restarts optimisations", {"restarts": "lin"}),
    # ---- thesis_ch8 ----
    # exact t_tensor (object Fractions, t^2 .. t^3 per t) for t <= t_exact_max per point; per item t of t_list
    # expected_T_diag(t) ((t/2 + 4) nodes x t x 2 x 2 float64, ~6 arrays) and O(t)-term exact harmonic sums
    "thesis_ch8.corollary_E_2": E(lambda p: 6 * F8 * 4 * max(_items(p["t_list"])) * (max(_items(p["t_list"])) / 2 + 4) + _SMALL,
                                  "t_tensor work arrays over (t/2 + 4) nodes x t positions x 2 x 2 at the largest t of t_list",
                                  work=_parts_work("thesis_ch8.corollary_E_2", lambda p: p["points"] * float(p["t_exact_max"]) ** 4,
                                                   lambda p: sum(float(t) ** 2 for t in _items(p["t_list"]))),
                                  work_params=("points", "t_exact_max", "t_list")),
    # _exact_losses(t) (k2_exact_losses: t^4 bytes), the (eval_n, t, t) attention arrays of the minimal model,
    # the transformer's (eval_n, tf_t, tf_t / tf_d) arrays at every checkpoint; time: the sum of the parts
    "thesis_ch8.empirical_phases": E(
        lambda p: max(_k2_exact_bytes(p["t"]), 8 * F8 * p["eval_n"] * p["t"] ** 2,
                      8 * F8 * p["eval_n"] * p["tf_t"] * max(p["tf_t"], p["tf_d"])) + _SMALL,
        "k2_exact_losses(t) weights (t^4 bytes), (eval_n, t, t) minimal-model attention arrays, transformer "
        "evaluation arrays; lr and tf_lr are free (step sizes)",
        work=_parts_work(
            "thesis_ch8.empirical_phases",
            lambda p: float(p["t"]) ** 4,
            lambda p: p["seeds"] * p["steps"] * (64 + p["eval_n"] / max(p["eval_every"], 1)) * float(p["t"]) ** 2,
            lambda p: p["runs"] * (p["runs_steps"] * 64 + 13 * p["eval_n"]) * float(p["t"]) ** 2,
            lambda p: p["tf_seeds"] * (p["tf_steps"] * 64 + 21 * p["eval_n"]) * float(p["tf_t"]) ** 2 * p["tf_d"]),
        work_params=("t", "steps", "seeds", "eval_every", "eval_n", "tf_steps", "tf_t", "tf_d", "tf_seeds", "runs",
                     "runs_steps"),
        free=("lr", "tf_lr")),
    # sympy integrals of Beta / Dirichlet densities for (c_max + 1)^2 count pairs, degree ~ c_max
    "thesis_ch8.eq_8_3_bigram_posterior": E(lambda p: _SMALL, "sympy expressions (no arrays)", {"c_max": "cubic"}),
    # enumerate_expectation over k^(t+1) sequences (k = 2 up to t2_max, k = 3 up to t3_max), O(t^3) Fractions each
    "thesis_ch8.eq_E13_first_step_gradient": E(
        lambda p: _SMALL, "streamed sequences and (t, k, k) Fraction tensors",
        work=lambda p: p["chains"] * (sum(2.0 ** (t + 1) * t ** 3 for t in range(1, p["t2_max"] + 1))
                                      + sum(3.0 ** (t + 1) * t ** 3 for t in range(1, p["t3_max"] + 1))),
        work_params=("chains", "t2_max", "t3_max")),
    # exact 2 x 2 Fraction matrix powers up to n_max per point (n-bit entries: ~ n_max^2)
    "thesis_ch8.eq_E15_matrix_powers": E(lambda p: _SMALL, "2 x 2 Fraction matrices", {"points": "lin", "n_max": "quad"}),
    # the direct triple sums: t^3 / 6 Fraction powers of O(t) bits per t, for t <= t_max: ~ t_max^5
    "thesis_ch8.eq_E16_E17_triple_sums": E(lambda p: _SMALL, "Python Fractions (no arrays)", {"t_max": "pow5", "points": "lin"}),
    "thesis_ch8.eq_E19_E22_W_entries": E(
        lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " (t_sym); exact Fraction t_tensor for t <= t_max",
        work=_parts_work("thesis_ch8.eq_E19_E22_W_entries", lambda p: p["points"] * float(p["t_max"]) ** 3,
                         lambda p: float(p["t_sym"]) ** 3),
        work_params=("points", "t_max", "t_sym")),
    "thesis_ch8.eq_E23_E25_leading_W": E(lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " for every t of t_list",
                                         work=lambda p: sum(float(t) ** 3 for t in _items(p["t_list"])),
                                         work_params=("t_list",)),
    "thesis_ch8.eq_E26_E29_v_update": E(
        lambda p: 3 * _SMALL, _CH8_EXPECTED_T + " for every t of t_list; exact Fraction t_tensor for t <= t_max",
        work=_parts_work("thesis_ch8.eq_E26_E29_v_update", lambda p: p["points"] * float(p["t_max"]) ** 4,
                         lambda p: sum(float(t) ** 3 for t in _items(p["t_list"]))),
        work_params=("points", "t_max", "t_list")),
    # w_j_float(j) (80- and 120-node quadratures) for j <= j_max + 1, all pairs (i, j) compared
    "thesis_ch8.even_odd_pattern": E(lambda p: _SMALL, "K2 quadrature nodes (fixed 80 / 120 per axis)", {"j_max": "quad"}),
    # per sequence: the minimal model forward (t x t) and reference double sums, O(t^3) Python loops
    "thesis_ch8.fact_8_3": E(lambda p: _SMALL + 4 * F8 * p["t"] ** 2, "(t, t) attention matrices of one sequence",
                             {"sequences": "lin", "t": "cubic"}),
    # expected_T(t) and expected_T(2t) (t^3), eta_star(tt) for tt in t_eta, j_max quadratures, n_eta two-step runs;
    # c is a scalar initial value (free)
    "thesis_ch8.lemma_8_4": E(
        lambda p: 3 * _SMALL + F8 * 2 * p["t"] * 4, _CH8_EXPECTED_T + " at t, 2t and every t of t_eta; c is free (a scalar "
        "initial value)",
        work=_parts_work("thesis_ch8.lemma_8_4", lambda p: 9 * float(p["t"]) ** 3,
                         lambda p: sum(float(t) ** 3 for t in _items(p["t_eta"])),
                         lambda p: p["j_max"], lambda p: p["n_eta"] * p["t"]),
        work_params=("t", "t_eta", "j_max", "n_eta"), free=("c",)),
    "thesis_ch8.linear_regime_dynamics": E(
        lambda p: 3 * _SMALL + 4 * F8 * p["t"] ** 2, _CH8_EXPECTED_T + "; (4, t) SVD; steps O(t) GD steps",
        work=_parts_work("thesis_ch8.linear_regime_dynamics", lambda p: float(p["t"]) ** 3, lambda p: p["steps"] * p["t"]),
        work_params=("t", "steps")),
    # per eps: _e3_cached at t and 2t: sample_chains (chains, 2t), minimal_model_forward's two (chains, L, L)
    # float64 attention arrays (L = 2t), expected_T(2t)
    "thesis_ch8.proposition_8_5": E(
        lambda p: 3 * F8 * p["chains"] * (2 * p["t"]) ** 2 + 3 * _SMALL,
        "(chains, 2t, 2t) float64 minimal-model attention arrays, 3 copies",
        work=_parts_work("thesis_ch8.proposition_8_5",
                         lambda p: len(str(p["eps_list"]).split(",")) * p["chains"] * float(2 * p["t"]) ** 2,
                         lambda p: float(2 * p["t"]) ** 3),
        work_params=("t", "chains", "eps_list")),
    # k2_exact_losses(t) for every t of t_list (t^4 bytes at the largest, time ~ t^4 each); the 2^t enumeration is t <= 6
    "thesis_ch8.remark_8_1": E(lambda p: _k2_exact_bytes(max(_items(p["t_list"]))) + _SMALL,
                               "k2_exact_losses(t) quadrature weights: (t^2/4 classes, t^2/2 nodes) float64, 3 copies",
                               work=lambda p: sum(float(t) ** 4 for t in _items(p["t_list"])), work_params=("t_list",)),
    # k2_exact_losses(t) (t^4 bytes) and Monte Carlo chunks of 20000 chains for k = 2, 3 and every k of k_list
    "thesis_ch8.strategy_losses": E(
        lambda p: max(_k2_exact_bytes(p["t"]), 6 * F8 * min(p["n"], 20000) * (p["t"] + max(_items(p["k_list"])) ** 2)) + _SMALL,
        "k2_exact_losses(t) weights (t^4 bytes); chunks of 20000 chains of length t and (chunk, k, k) transitions",
        work=_parts_work("thesis_ch8.strategy_losses", lambda p: float(p["t"]) ** 4,
                         lambda p: p["n"] * p["t"] * sum(k * k for k in [2, 2, 3] + _items(p["k_list"]))),
        work_params=("t", "n", "k_list")),
})


# ---- issue 19 audit: seed002 (the claims whose parameters changed with their contract audit) ----
def _search_work(p) -> float:
    """A seeded multi-start search (verify.sharpness.maximize_continuous): (restarts + 1) starts x maxiter."""
    return (p["restarts"] + 1.0) * p["maxiter"]


ESTIMATES.update({
    # exact binomial bounds for every N = 2 .. N_max (each O(N) terms), Monte Carlo trials only at N <= 64
    "seed002.assumption_3": E(lambda p: _SMALL + 4 * F8 * p["N_max"], "per-N binomial bounds and a few N_max arrays",
                              work=_parts_work("seed002.assumption_3", lambda p: float(p["N_max"]) ** 2,
                                               lambda p: float(p["trials"])), work_params=("N_max", "trials")),
    # SGD on a fixed small feedforward model: steps iterations, constant memory
    "seed002.definition_5": E(lambda p: _SMALL, "a fixed small model and its gradients", {"steps": "lin"}),
    # training runs: a transformer (attention over N tokens: N^2 per prompt) per N <= N_max and seed, and GRU runs
    "seed002.figure_1": E(lambda p: _SMALL + 64 * F8 * 12 * 12 * 64,
                          "batches of 64 prompts of N <= 12 tokens and small models",
                          work=_parts_work("seed002.figure_1",
                                           lambda p: p["seeds"] * p["max_steps"] * float(p["N_max"]) ** 2,
                                           lambda p: p["rnn_seeds"] * p["rnn_max_steps"] * float(p["N_max"])),
                          work_params=("N_max", "seeds", "max_steps", "rnn_seeds", "rnn_max_steps")),
    "seed002.figure_2": E(lambda p: _SMALL + 64 * F8 * p["N"] * (p["N"] + 64), "batches of 64 prompts of N tokens, N x N attention",
                          {"N": "quad", "max_steps": "lin"}),
    # prompts x N tokens of dimension d + d_e (d = 4, d_e ~ 16 ln N + 8) and the N x N attention of each head
    "seed002.lemma_11": E(lambda p: 3 * F8 * p["prompts"] * p["N_max"] * (12 + 16 * math.log(p["N_max"]))
                          + 3 * 3 * F8 * float(p["N_max"]) ** 2,
                          "(prompts, N, d + d_e) tokens and codes, N x N attention per head (q <= 3)",
                          {"prompts": "lin", "N_max": "quad"}, free=("all_eps",)),
    "seed002.lemma_13": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_15": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_30": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    "seed002.lemma_39": E(lambda p: _SMALL, "small matrices in a multi-start search", work=_search_work,
                          work_params=("restarts", "maxiter")),
    # trials draws of small (n, d) interpolation problems
    "seed002.lemmas_36_38": E(lambda p: _SMALL, "one small interpolation problem per trial", {"trials": "lin"}),
    # (the full tier took 1.85 s on a loaded machine, too long for WITHIN_TESTED): T = 2, 4, ..., 2^L, every
    # s < T and i < log2 T, each a construction over T tokens: ~ T^2 log T at the largest T, 4^L as the law
    # the next two also took over a second at the full tier on the loaded machine (too long for WITHIN_TESTED):
    # every k <= k_max, each over the 2^k sign patterns of the k-zigzag
    "thesis_ch5.constructions.infinite_zigzag": E(lambda p: _SMALL + 8 * F8 * p["k_max"] * 2.0 ** p["k_max"],
                                                  "the 2^k sign patterns of the largest k", {"k_max": "nexp2"}),
    # the construction executed exhaustively on {+-1}^n for every even k <= k_max
    "thesis_ch6.lemma_C.6.readout": E(lambda p: _SMALL + cube(p["n"], F8 * (p["n"] + 4)), "exhaustive tables over {+-1}^n",
                                      {"n": "nexp2", "k_max": "lin"}),
    "thesis_ch4.prop_4.8": E(lambda p: _SMALL + 4 * F8 * 4.0 ** p["log2_T_max"], "(T, T) attention tables at T = 2^L",
                             {"log2_T_max": "exp4"}),
})
