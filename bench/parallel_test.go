package bench

import (
	"runtime"
	"sync"
)

// parallelMap applies f to every element of in on GOMAXPROCS workers and
// returns the results in input order (the differential tests compare
// thousands of cases on both sides).
func parallelMap[T, R any](in []T, f func(T) R) []R {
	out := make([]R, len(in))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = f(in[i])
			}
		}()
	}
	for i := range in {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
