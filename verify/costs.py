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
* Every parameter that neither covers (:func:`uncovered`; the claims with one are :func:`_pending`, a
  count that tests/test_costs.py only lets go down) gets the conservative default: a numeric parameter,
  or the largest item of a numeric list parameter, may go up to ``DEFAULT_FACTOR`` times the largest
  value any tier uses; beyond that its cost is unknown and the run is refused.

Measured (tracemalloc peak against the model): seed000.def_2.2 at N = n = 128 63.6 / 63.5 MiB,
thesis_ch5.lemma_B.1 at n = 21 48.2 / 48.0 MiB, thesis_ch8.icl_mc_data_model at n = 10^5, t = 30
111 / 122 MiB, thesis_ch6.assumption_6.2 at n = 20 17.3 / 16.0 MiB, thesis_ch5.warmup_gradient at n = 19
40 / 40 MiB (after raising its model from 7 to 10 arrays).

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
    # _run_trials: (trials, m) packed GF(2) rows (ceil((d+1)/64) words), labels, augmented copy and the
    # elimination's copy at m = d + log2(1/delta), for the largest d of ``dims``; the exact part loops over d
    "seed003.gaussian_elimination.samples": E(
        lambda p: p["trials"] * (max(_ints(p["dims"])) + max(_ints(p["log2_inv_delta"])))
        * (4 * F8 * math.ceil((max(_ints(p["dims"])) + 1) / 64) + 2),
        "(trials, d + log2(1/delta)) packed GF(2) rows, 4 copies (measured 256 MiB against 260 at trials = 20000, d = 128)",
        {"trials": "lin", "exact_d_max": "quad"}, free=("alpha",), memory_params=("dims", "log2_inv_delta")),
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
    # bootstrap: idx (bootstrap, inits) int64 and R[idx] float64
    "thesis_ch5.thm_5.7.full": E(lambda p: 2 * F8 * p["bootstrap"] * p["inits"] + 4 * F8 * max(p["mc_samples"], p["ingredient_draws"]),
                                 "(bootstrap, inits) resampling indices and values; Monte Carlo vectors",
                                 {"inits": "lin", "bootstrap": "lin", "mc_samples": "lin", "ingredient_draws": "lin"}),
    # two-layer SGD trainings: (runs, width, n + 2) parameters and gradients, (boot, runs) bootstrap resamples
    "thesis_ch5.finding_5.1": E(
        lambda p: 3 * F8 * max(p["runs"], p["precision_runs"], p["ablation_runs"]) * p["width"] * (max(_ints(p["ns"])) + 2)
        + 2 * F8 * p["boot"] * max(p["runs"], p["precision_runs"], p["ablation_runs"]),
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"runs": "lin", "steps": "lin", "width": "lin", "batch": "lin", "boot": "lin", "precision_runs": "lin",
         "ablation_runs": "lin", "ablation_steps": "lin"}, free=("lr", "eval_every"), memory_params=("ns",)),
    "thesis_ch5.random_search.width": E(
        lambda p: 3 * F8 * p["runs"] * max(_ints(p["widths"])) * (p["n"] + 2) + 2 * F8 * p["boot"] * p["runs"],
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"n": "lin", "runs": "lin", "steps": "lin", "batch": "lin", "boot": "lin"}, free=("lr", "eval_every"),
        memory_params=("widths",)),
    # exhaustive-population SGD over {+-1}^n, width r, inits independent runs; T ~ 1/eps^2 steps
    "thesis_ch5.thm_5.5": E(lambda p: signs(p["n"]) + 3 * F8 * p["r"] * 2.0 ** p["n"],
                            "sign_vectors(n) and (2^n, r) activations",
                            {"n": "nexp2", "r": "lin", "inits": "lin", "t_fraction": "lin", "eps": "inv2"}),
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
    # chunks of 20000 chains: memory bounded by the chunk, time linear in n
    "thesis_ch8.strategy_losses": E(lambda p: 4 * F8 * min(p["n"], 20000) * (p["t"] + max(_ints(p["k_list"])) ** 2),
                                    "chunks of 20000 chains of length t", {"n": "lin", "t": "lin"}),
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
}

ESTIMATES.update({
    "seed000.arch_4.1": loop("machines"),
    "seed000.def_D.5": loop("maps"),
    "seed001.def_11_softmax_block": loop("instances"),
    "seed001.lemma_16_softmax_ua": loop("samples"),
    "seed001.lemma_5_backprop_ewml": loop("instances"),
    "seed001.problem_2_spec": loop("instances"),
    "seed001.theorem_2_informal": loop("instances"),
    "seed002.figure_1": loop("seeds", "rnn_seeds"),
    "seed002.lemma_40": loop("instances"),
    "seed003.computation_phase": loop("datasets"),
    "seed003.corollary_3": loop("built"),
    "seed003.definition_5": loop("datasets"),
    "seed003.definition_6": loop("datasets", "machines"),
    "seed003.head_spec": loop("grids"),
    "seed003.layer_spec": loop("machines"),
    "seed003.lemma_2.computation": loop("datasets"),
    "seed003.lemma_4": loop("datasets"),
    "seed003.lemma_5": loop("instances"),
    "seed003.lemma_6": loop("domains", "draws"),
    "seed003.observation_1": loop("random_M"),
    "thesis_ch4.def_4.1": loop("instances"),
    "thesis_ch4.def_4.4": loop("instances"),
    "thesis_ch4.lemma_4.7": loop("instances"),
    "thesis_ch4.lemma_A.11": loop("instances"),
    "thesis_ch4.lemma_A.12": loop("instances"),
    "thesis_ch4.lemma_A.13": loop("instances"),
    "thesis_ch4.lemma_A.14": loop("instances", "restarts"),
    "thesis_ch4.lemma_A.15": loop("instances"),
    "thesis_ch4.lemma_A.2": loop("instances"),
    "thesis_ch4.lemma_A.22": loop("functions"),
    "thesis_ch4.lemma_A.23": loop("functions"),
    "thesis_ch4.lemma_A.24": loop("instances"),
    "thesis_ch4.lemma_A.25": loop("instances", "z_draws"),
    "thesis_ch4.lemma_A.8": loop("instances"),
    "thesis_ch4.sec_4.4.2_remarks": loop("instances"),
    "thesis_ch4.thm_4.11": loop("instances"),
    "thesis_ch5.constructions.low_degree": loop("trials"),
    "thesis_ch5.layerwise.downstream_degree": loop("trials"),
    "thesis_ch5.layerwise.gradient_vanishes": loop("trials"),
    "thesis_ch5.lemma_B.1.asymptotic": loop("limit_proofs"),
    "thesis_ch6.lemma_C.1": loop("models"),
    "thesis_ch6.lemma_C.3": loop("neurons"),
    "thesis_ch6.lemma_C.4": loop("neurons"),
    "thesis_ch6.lemma_C.7": loop("pairs"),
    "thesis_ch7.eq_D1_reduction": loop("samples"),
    "thesis_ch7.fourier_identity_D3": loop("samples"),
    "thesis_ch7.homogeneity_normalized_margin": loop("samples"),
    "thesis_ch7.lemma_7_2": loop("random_nets"),
    "thesis_ch7.lemma_7_3": loop("mixtures"),
    "thesis_ch7.lemma_7_5": loop("mixtures"),
    "thesis_ch7.lemma_D13": loop("taus"),
    "thesis_ch7.max_min_reformulation": loop("samples"),
    "thesis_ch7.memorizing_construction": loop("random_tables"),
    "thesis_ch7.parity_single_neuron_expectation": loop("samples"),
    "thesis_ch8.corollary_E_2": loop("points"),
    "thesis_ch8.eq_E13_first_step_gradient": loop("chains"),
    "thesis_ch8.eq_E15_matrix_powers": loop("points"),
    "thesis_ch8.eq_E19_E22_W_entries": loop("points"),
    "thesis_ch8.eq_E26_E29_v_update": loop("points"),
    "thesis_ch8.fact_8_3": loop("sequences"),
    "thesis_ch8.transformer_and_margin_loss": loop("cases"),
})

#: claims with parameters whose whole declared domain is cheap (the reason says why); no default rule
SAFE: dict[str, str] = {
    **SAFE_BY_READING,
    "seed001.def_1_param_count": WITHIN_TESTED,
    "seed001.lemma_17_contextual_mapping": WITHIN_TESTED,
    "seed003.theorem_1": WITHIN_TESTED,
    "thesis_ch4.lemma_A.10": WITHIN_TESTED,
    "thesis_ch4.prop_4.8": WITHIN_TESTED,
    "thesis_ch5.constructions.infinite_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.k_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.mlp_power_width": WITHIN_TESTED,
    "thesis_ch5.constructions.oscillating_polynomial": WITHIN_TESTED,
    "thesis_ch5.constructions.sinusoid": WITHIN_TESTED,
    "thesis_ch5.random_search.closed_form": WITHIN_TESTED,
    "thesis_ch6.lemma_C.15": WITHIN_TESTED,
    "thesis_ch6.lemma_C.6.readout": WITHIN_TESTED,
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


def estimate(claim_id: str, params: Mapping[str, Any]) -> Cost | None:
    """The cost of running ``claim_id`` at ``params`` (None if it declares no estimate)."""
    est = ESTIMATES.get(claim_id)
    if est is None:
        return None
    seconds = None
    rec = _full_seconds().get(claim_id)
    if rec is not None:
        t_full, full = rec
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
