package cluster

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/internal/kubename"
)

// Validate returns what Kubernetes finds wrong in s when it turns it into
// a selector (k8s.io/apimachinery's metav1.LabelSelectorAsSelector), in
// its words: an operator that is not In, NotIn, Exists or DoesNotExist, a
// key that is not a qualified name, In or NotIn without values, Exists or
// DoesNotExist with some, a value that is not a label value. Like it, it
// reports the first requirement that is wrong (matchLabels first, by key;
// then matchExpressions in order), with every problem of that requirement.
// A nil or empty selector is valid.
func (s *LabelSelector) Validate() error {
	if s == nil {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		if err := requirementError(k, SelectorOpIn, []string{s.MatchLabels[k]}, true); err != nil {
			return err
		}
	}
	for _, r := range s.MatchExpressions {
		switch r.Operator {
		case SelectorOpIn, SelectorOpNotIn, SelectorOpExists, SelectorOpDoesNotExist:
		default:
			return fmt.Errorf("%q is not a valid label selector operator", r.Operator)
		}
		if err := requirementError(r.Key, r.Operator, r.Values, false); err != nil {
			return err
		}
	}
	return nil
}

// requirementError is labels.NewRequirement's error for one requirement
// (equals: a matchLabels pair), or nil.
func requirementError(key, op string, vals []string, equals bool) error {
	var errs []*FieldError
	if msgs := kubename.LabelKey(key); len(msgs) > 0 {
		errs = append(errs, &FieldError{Type: FieldValueInvalid, Field: "key", Value: key, Detail: strings.Join(msgs, "; ")})
	}
	var bad any = vals
	if len(vals) == 0 {
		bad = nil // the values are copied into a nil slice: JSON null
	}
	switch {
	case equals:
	case (op == SelectorOpIn || op == SelectorOpNotIn) && len(vals) == 0:
		errs = append(errs, &FieldError{Type: FieldValueInvalid, Field: "values", Value: bad, Detail: "for 'in', 'notin' operators, values set can't be empty"})
	case (op == SelectorOpExists || op == SelectorOpDoesNotExist) && len(vals) > 0:
		errs = append(errs, &FieldError{Type: FieldValueInvalid, Field: "values", Value: bad, Detail: "values set must be empty for exists and does not exist"})
	}
	for i, v := range vals {
		if msgs := kubename.LabelValue(v); len(msgs) > 0 {
			errs = append(errs, &FieldError{Type: FieldValueInvalid, Field: fmt.Sprintf("values[%d][%s]", i, key), Value: v, Detail: strings.Join(msgs, "; ")})
		}
	}
	return aggregate(errs)
}

// aggregate is apimachinery's aggregate error: one error as it is, several
// as "[a, b]", each message once.
func aggregate(errs []*FieldError) error {
	var msgs []string
	for _, e := range errs {
		if m := e.Error(); !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	switch len(msgs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}
