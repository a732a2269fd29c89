// Reads quantity strings, one a line, and prints a JSON map of each that parses to its Quantity.String()
// (the canonical form the API server stores): the fixture src/sim/util/quantity-canonical.json,
// captured with `go run ./cmd/quantity < inputs` in oracle/.
package main

import (
	"bufio"
	"encoding/json"
	"os"

	"k8s.io/apimachinery/pkg/api/resource"
)

func main() {
	out := map[string]string{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		in := sc.Text()
		q, err := resource.ParseQuantity(in)
		if err != nil {
			continue
		}
		out[in] = q.String()
	}
	b, _ := json.MarshalIndent(out, "", " ")
	os.Stdout.Write(b)
}
