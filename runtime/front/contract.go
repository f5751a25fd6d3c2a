package front

import "strings"

// RuntimeContract is the model runtime contract of this release:
// vllm-srun reports it as api_version in GET /health, and a Router refuses
// a vllm-sr/5.0 deployment whose runtime reports another (a Router and its
// model runtime come from one release).
const RuntimeContract = "5.0.0"

// contractSeries is RuntimeContract's major.minor: "5.0".
var contractSeries = RuntimeContract[:strings.LastIndexByte(RuntimeContract, '.')]

// SameContract reports whether version is a release of RuntimeContract's
// major.minor series (5.0.x, x a number): a patch release keeps the
// contract, any other version is another one.
func SameContract(version string) bool {
	patch, ok := strings.CutPrefix(version, contractSeries+".")
	if !ok || patch == "" || len(patch) > 9 {
		return false
	}
	for _, c := range patch {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ContractSeries is how a message names the contracts SameContract takes:
// "5.0.x".
func ContractSeries() string { return contractSeries + ".x" }
